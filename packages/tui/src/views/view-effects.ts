import type { TuiStore } from "../state/store.js";
import type { DetailRef } from "../state/types.js";
import type { ViewEffect, ViewInput } from "./view-state.js";

/** What the run view may do to the loop (LoopControl fits it). */
export interface LoopControls {
  readonly paused: boolean;
  pause(): void;
  unpause(): void;
  requestStop(): void;
  interrupt(): void;
  steer(text: string): void;
  /** The answer to the agent's question (status waiting). */
  answer(text: string): void;
}

/** Reads an entry's whole content from the session's stored messages (the CLI's store; the TUI has no database). */
export type DetailLoader = (ref: DetailRef) => Promise<string>;

/** Who performs the view's effects: SessionView's props. */
export interface EffectTargets {
  store: TuiStore;
  controls?: LoopControls;
  onQuit: () => void;
  onInterrupt?: () => void;
  details?: DetailLoader;
}

/** Performs one effect of a key; a load's outcome comes back through `dispatch`. */
export function performEffect(
  effect: ViewEffect,
  { store, controls, onQuit, onInterrupt, details }: EffectTargets,
  dispatch: (input: ViewInput) => void,
): void {
  switch (effect.type) {
    case "notice":
      return store.notice(effect.text, effect.tone);
    case "quit":
      return onQuit();
    case "interrupt":
      // The CLI's handler (a SIGINT, as from the terminal) says what it does; without one, the view does.
      if (onInterrupt) return onInterrupt();
      store.notice("interrupting: writing a checkpoint, then pausing (Ctrl-C again to exit at once)", "warn");
      return controls?.interrupt();
    case "stop":
      return controls?.requestStop();
    case "pause":
      return controls?.pause();
    case "unpause":
      return controls?.unpause();
    case "steer":
      return controls?.steer(effect.text);
    case "answer":
      return controls?.answer(effect.text);
    case "load":
      return void details?.(effect.ref).then(
        (text) => dispatch({ type: "loaded", opened: effect.opened, text }),
        (error: unknown) =>
          dispatch({ type: "load-failed", opened: effect.opened, error: error instanceof Error ? error.message : String(error) }),
      );
  }
}
