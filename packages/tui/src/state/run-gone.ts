import { stopClock } from "./reduce.js";
import type { TuiStore } from "./store.js";

/**
 * A watched run that ended without a word: its process was killed (kill -9, a second Ctrl-C) before
 * it could write its end, so no event will ever say so. The watcher learns it from the session's
 * lease instead and shows it as `hatloop ls` does: interrupted, the clock stopped, and how to resume.
 */
export function showRunGone(store: TuiStore, resumeCommand: string, now = Date.now()): void {
  stopClock(store.getState(), "interrupted", "the run ended without a word", now);
  // Two short lines, so that a narrow activity pane does not cut the command off.
  store.notice("✗ the run ended without a word (killed, or quit at once)", "error");
  store.notice(`resume it with: ${resumeCommand}`, "error");
}
