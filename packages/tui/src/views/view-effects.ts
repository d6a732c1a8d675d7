import type { TuiStore } from "../state/store.js";
import type { TerminalActions } from "../terminal-actions.js";
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

/** The session's changes, read from its worktree (the console's diffs): a checkpoint commit's diff, a file's path on disk. */
export interface ChangesLoader {
  /** `git show --patch` of the commit; null when the worktree is not on this machine. */
  diff(commit: string): Promise<string | null>;
  /** The file's path in the worktree; null when it is not on this machine. */
  path(file: string): Promise<string | null>;
}

/** Raises the session's cost budget by `moreUsd` over what it spent; says what it did, in a line. */
export type BudgetRaiser = (moreUsd: number) => Promise<{ ok: boolean; message: string }>;

/** Who performs the view's effects: SessionView's props. */
export interface EffectTargets {
  store: TuiStore;
  controls?: LoopControls;
  onQuit: () => void;
  onInterrupt?: () => void;
  details?: DetailLoader;
  /** Copy and $PAGER (absent off a terminal). */
  terminal?: TerminalActions;
  changes?: ChangesLoader;
  raiseBudget?: BudgetRaiser;
}

/** Performs one effect of a key; a load's outcome comes back through `dispatch`. */
export function performEffect(
  effect: ViewEffect,
  { store, controls, onQuit, onInterrupt, details, terminal, changes, raiseBudget }: EffectTargets,
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
    case "copy":
      if (!terminal) return store.notice("no terminal to copy to", "warn");
      return terminal.copy(effect.text);
    case "page": {
      const failed = terminal ? terminal.page(effect.text) : "no terminal";
      return failed === null ? undefined : store.notice(`the pager did not open: ${failed}`, "warn");
    }
    case "load-diff": {
      const { commit } = effect;
      if (!changes) return dispatch({ type: "diff-loaded", commit, text: null, error: "the worktree cannot be read from this view" });
      return void changes.diff(commit).then(
        (text) => dispatch({ type: "diff-loaded", commit, text, error: text === null ? "the worktree is not on this machine" : null }),
        (error: unknown) =>
          dispatch({ type: "diff-loaded", commit, text: null, error: error instanceof Error ? error.message : String(error) }),
      );
    }
    case "edit":
      return void changes?.path(effect.path).then((path) => {
        const failed = path === null ? "the worktree is not on this machine" : terminal ? terminal.edit(path) : "no terminal";
        if (failed !== null) store.notice(`the editor did not open: ${failed}`, "warn");
      });
    case "raise":
      return void raiseBudget?.(effect.moreUsd).then(
        ({ ok, message }) => store.notice(message, ok ? "good" : "error"),
        (error: unknown) =>
          store.notice(`the budget could not be raised: ${error instanceof Error ? error.message : String(error)}`, "error"),
      );
    case "load":
      return void details?.(effect.ref).then(
        (text) => dispatch({ type: "loaded", opened: effect.opened, text }),
        (error: unknown) =>
          dispatch({ type: "load-failed", opened: effect.opened, error: error instanceof Error ? error.message : String(error) }),
      );
  }
}
