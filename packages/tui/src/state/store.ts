import type { LoopEvent } from "@hatloop/core";
import { applyEvent, MAX_ENTRIES, push } from "./reduce.js";
import type { Tone, TuiState } from "./types.js";

// Holds the TUI state outside React. Events apply at once (cheap); listeners — the view — are told
// at most once per frame, and each frame costs a React render, a layout and a write to the terminal.
// A frame comes within 125 ms of an event; when only streamed text changed, within 250 ms: text
// arriving a line a frame scrolls the whole activity pane, so every row is drawn again, and 4 such
// frames a second read as well as 8 (a 10-response run: 175 frames became 106, 0.25 s less CPU of
// 3.3 s). So 200 text deltas a second cost the loop nothing and the screen 4 renders a second. Keys
// redraw at once (Ink's own limit, VIEW_OPTIONS).

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
  const textFrameMs = 2 * frameMs;
  const now = options.now ?? Date.now;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** When the pending frame is due (performance.now()). */
  let due = 0;
  const notify = () => {
    timer = null;
    listeners.forEach((l) => l());
  };
  const schedule = (ms: number) => {
    if (listeners.size === 0) return;
    const at = performance.now() + ms;
    if (timer !== null) {
      if (due <= at) return;
      clearTimeout(timer);
    }
    due = at;
    timer = setTimeout(notify, ms);
  };
  return {
    push(event) {
      applyEvent(state, event, now(), options.maxEntries ?? MAX_ENTRIES);
      schedule(event.type === "model.text" ? textFrameMs : frameMs);
    },
    notice(text, tone = "normal") {
      push(state, { id: state.nextId++, iteration: state.iteration, tone, text }, options.maxEntries ?? MAX_ENTRIES);
      schedule(frameMs);
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
