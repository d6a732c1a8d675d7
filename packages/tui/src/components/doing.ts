import { formatDuration } from "@hatloop/core";
import type { TuiState } from "../state/types.js";

/**
 * "doing for 12s: run_command npm test": the newest tool call not yet answered, or else the model
 * call under way, and for how long, first so a cut line keeps it (null when nothing runs). Ticks
 * with the view's clock.
 */
export function doingLine(state: TuiState, now: number): string | null {
  if (state.status !== "running" || state.doing.length === 0) return null;
  const tools = state.doing.filter((d) => d.id !== null);
  const current = tools.at(-1) ?? state.doing[0]!;
  const more = tools.length > 1 ? ` (+${tools.length - 1} more)` : "";
  return `doing for ${formatDuration(Math.max(0, now - current.since))}: ${current.what.replace(/\s+/g, " ")}${more}`;
}
