import type { Tone, TuiState } from "../state/types.js";

// Semantic colours in one place. With NO_COLOR the CLI sets FORCE_COLOR=0 before Ink loads, and Ink
// then prints no colour codes at all.

export const toneColor: Record<Tone, string | undefined> = {
  normal: undefined,
  muted: "gray",
  tool: "cyan",
  good: "green",
  warn: "yellow",
  error: "red",
  text: "white",
  hat: "magenta",
  you: "blueBright",
};

export const zoneColor: Record<TuiState["context"]["zone"], string> = { green: "green", gauge: "yellow", warn: "yellowBright", compact: "red" };

export const statusColor: Record<TuiState["status"], string> = {
  starting: "gray",
  running: "green",
  paused: "yellow",
  completed: "greenBright",
  failed: "red",
  stopped: "yellow",
  interrupted: "red",
};

export const checkMark = { pending: "[ ]", in_progress: "[~]", done: "[x]", failed: "[!]", skipped: "[-]" } as const;
export const checkColor = { pending: undefined, in_progress: "cyan", done: "green", failed: "red", skipped: "gray" } as const;
