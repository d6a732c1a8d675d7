export type OutputMode = "tui" | "plain" | "json";

/**
 * JSON when asked; the TUI only on a real terminal (stdout and stdin TTYs, not TERM=dumb, not
 * --plain); plain lines otherwise — so a pipe never receives cursor codes.
 */
export function outputMode(flags: { json?: boolean; plain?: boolean }, env: NodeJS.ProcessEnv = process.env): OutputMode {
  if (flags.json) return "json";
  if (flags.plain || !process.stdout.isTTY || !process.stdin.isTTY || env.TERM === "dumb") return "plain";
  return "tui";
}
