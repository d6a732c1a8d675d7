// What the CLI's start-up imports from core (`@hatloop/core/light`): plain values and parsers, no
// zod and no loop. `hatloop --help` registers every command's options with these before any
// command's module, and with it the rest of core, is loaded.

/** waiting: the agent asked the user a question (ask_user) and the run waits for `hatloop answer`. */
export const SESSION_STATUSES = ["pending", "running", "waiting", "paused", "completed", "failed", "stopped"] as const;

const DURATION_UNITS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "90s", "15m", "4h", "1d", "250ms", "1.5h". */
export const DURATION_PATTERN = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;

/** A duration (DURATION_PATTERN) in milliseconds; undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const [, n, unit] = DURATION_PATTERN.exec(text) ?? [];
  return n === undefined ? undefined : Math.round(Number(n) * DURATION_UNITS[unit as keyof typeof DURATION_UNITS]);
}
