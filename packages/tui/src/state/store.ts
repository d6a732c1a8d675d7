import type { LoopEvent } from "@hatloop/core";
import { applyEvent, MAX_ENTRIES, push } from "./reduce.js";
import type { Tone, TuiState } from "./types.js";

// Holds the TUI state outside React. Events apply at once (cheap); listeners — the view — are told
// at most once per frame (125 ms: streamed text reads as well at 8 frames a second, and each frame
// costs a React render, a layout and a write to the terminal), so 200 text deltas a second cost the
// loop nothing and the screen 8 renders a second. Keys redraw at once (Ink's own limit, VIEW_OPTIONS).

export interface TuiStore {
  push(event: LoopEvent): void;
  /** A line from the CLI itself (not a loop event): "resuming from the handoff", errors. */
  notice(text: string, tone?: Tone): void;
  getState(): TuiState;
  subscribe(listener: () => void): () => void;
  /** Tells listeners now (tests, the last frame). */
  flush(): void;
}

export function createTuiStore(state: TuiState, options: { frameMs?: number; maxEntries?: number; now?: () => number } = {}): TuiStore {
  const listeners = new Set<() => void>();
  const frameMs = options.frameMs ?? 125;
  const now = options.now ?? Date.now;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const notify = () => {
    timer = null;
    listeners.forEach((l) => l());
  };
  const schedule = () => {
    if (timer === null && listeners.size > 0) timer = setTimeout(notify, frameMs);
  };
  return {
    push(event) {
      applyEvent(state, event, now(), options.maxEntries ?? MAX_ENTRIES);
      schedule();
    },
    notice(text, tone = "normal") {
      push(state, { id: state.nextId++, iteration: state.iteration, tone, text }, options.maxEntries ?? MAX_ENTRIES);
      schedule();
    },
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush() {
      if (timer !== null) clearTimeout(timer);
      notify();
    },
  };
}
