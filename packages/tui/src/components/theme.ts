import type { Tone, TuiState } from "../state/types.js";

// Semantic colours in one place. With NO_COLOR (--no-color sets it): no colour at all, but bold,
// inverse and symbols still show focus, the context zone and errors.

let mono = Boolean(process.env.NO_COLOR);

/** Tests switch it; the CLI decides it from the environment before the TUI loads. */
export function setMonochrome(on: boolean): void {
  mono = on;
}

export function monochrome(): boolean {
  return mono;
}

/** A colour, or none in monochrome. */
export function col(name: string | undefined): string | undefined {
  return mono ? undefined : name;
}

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
  iteration: "cyanBright",
};

/** What marks a tone without colour (monochrome only; colour says it otherwise). */
export const toneMark: Partial<Record<Tone, string>> = { error: "✗ ", warn: "! " };

export const zoneColor: Record<TuiState["context"]["zone"], string> = {
  green: "green",
  gauge: "yellow",
  warn: "yellowBright",
  compact: "red",
};

export const statusColor: Record<TuiState["status"], string> = {
  starting: "gray",
  running: "green",
  waiting: "magentaBright",
  paused: "yellow",
  completed: "greenBright",
  failed: "red",
  stopped: "yellow",
  interrupted: "red",
};

/** The status's symbol, shown in every mode (so NO_COLOR loses nothing). */
export const statusMark: Record<TuiState["status"], string> = {
  starting: "…",
  running: "▶",
  waiting: "?",
  paused: "‖",
  completed: "✓",
  failed: "✗",
  stopped: "■",
  interrupted: "■",
};

export const checkMark = { pending: "[ ]", in_progress: "[~]", done: "[x]", failed: "[!]", skipped: "[-]" } as const;
export const checkColor = { pending: undefined, in_progress: "cyan", done: "green", failed: "red", skipped: "gray" } as const;
