// The environment of every command the agent or the gates run: hatloop's own secrets and
// settings are removed, and tools are told they run unattended (no colour, no pager, no prompt).

const STRIPPED = new Set(["ANTHROPIC_API_KEY", "DATABASE_URL"]);

export function childEnv(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || STRIPPED.has(key) || key.startsWith("HATLOOP_")) continue;
    env[key] = value;
  }
  env.CI = "true";
  env.NO_COLOR = "1";
  env.FORCE_COLOR = "0";
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_PAGER = "cat";
  env.PAGER = "cat";
  return env;
}
