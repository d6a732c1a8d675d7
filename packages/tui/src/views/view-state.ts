import type { Key } from "ink";
import { FOLLOW, type ActivityScroll } from "../components/activity-lines.js";
import type { DetailView } from "../components/detail-lines.js";
import { NEW_FILES, type FilesView } from "../components/files-view.js";
import { EMPTY_DRAFT, type Draft } from "../components/line-editor.js";
import type { DetailRef, Tone, TuiState } from "../state/types.js";
import type { Panes } from "./layout.js";

// What the run view shows beyond the session's state (focus, scrolling, prompts, search, the opened
// entry), what changes it (keys, and an opened entry's content arriving), and what it asks the
// outside to do. view-keys.ts is the reducer; SessionView renders the state and performs the effects.

export type Focus = "activity" | "checklist" | "scratchpad";
type Overlay = "help" | "steer" | "answer" | "quit" | "search" | "detail" | "files" | "cost" | "budget" | null;

export interface ViewState {
  focus: Focus;
  overlay: Overlay;
  /** The open prompt's line (steer, answer, search); kept when Ctrl-C closes the prompt. */
  draft: Draft;
  activity: ActivityScroll;
  /** Lines scrolled from the top of each side pane. */
  side: Record<"checklist" | "scratchpad", number>;
  /** The entry a search jumped to (Enter opens it); without one, the entry at the bottom of the view. */
  selected: number | null;
  query: string | null;
  /** The entry opened whole (overlay "detail"). */
  detail: DetailView | null;
  /** How many entries were opened: a load for an earlier opening is dropped. */
  opened: number;
  /** Iterations folded to their header line (z, Z). */
  folded: ReadonlySet<number>;
  /** The files view (f): checkpoint, file, diff scroll, the loaded diff. */
  files: FilesView;
}

export const INITIAL_VIEW: ViewState = {
  focus: "activity",
  overlay: null,
  draft: EMPTY_DRAFT,
  activity: FOLLOW,
  side: { checklist: 0, scratchpad: 0 },
  selected: null,
  query: null,
  detail: null,
  opened: 0,
  folded: new Set(),
  files: NEW_FILES,
};

/** A key as Ink reports it (the flags the view reads). */
export type Keys = Pick<
  Key,
  | "upArrow"
  | "downArrow"
  | "leftArrow"
  | "rightArrow"
  | "pageUp"
  | "pageDown"
  | "home"
  | "end"
  | "return"
  | "escape"
  | "ctrl"
  | "meta"
  | "tab"
  | "backspace"
  | "delete"
>;

/** What changes the view: a key, or the stored content of an opened entry (or why it could not be read). */
export type ViewInput =
  /** `followed`: more keys came in the same read (typed fast, or a paste). */
  | { type: "key"; input: string; key: Keys; followed?: boolean }
  | { type: "loaded"; opened: number; text: string }
  | { type: "load-failed"; opened: number; error: string }
  /** A checkpoint commit's diff read from the worktree (null text: not readable here). */
  | { type: "diff-loaded"; commit: string; text: string | null; error: string | null };

/** What the view reads besides its own state, at the moment the input arrives. */
export interface ViewContext {
  tui: TuiState;
  /** The panes as last rendered. */
  panes: Panes;
  /** The loop runs in this process (the run view), or false when watching. */
  controls: boolean;
  /** The loop is held between iterations (LoopControls.paused). */
  paused: boolean;
  /** An opened entry's whole content can be read from the store. */
  canLoadDetails: boolean;
  /** The cost budget can be raised from the cost panel. */
  canRaiseBudget?: boolean;
}

/** What the view asks of the outside, in order. */
export type ViewEffect =
  | { type: "notice"; text: string; tone: Tone }
  /** Quit confirmed (run) or detach (watch). */
  | { type: "quit" }
  /** Ctrl-C in the run view. */
  | { type: "interrupt" }
  | { type: "stop" }
  | { type: "pause" }
  | { type: "unpause" }
  | { type: "steer"; text: string }
  | { type: "answer"; text: string }
  /** More cost budget, in dollars over what was spent. */
  | { type: "raise"; moreUsd: number }
  /** Read the opened entry's whole content; the result comes back as a loaded or load-failed input. */
  | { type: "load"; opened: number; ref: DetailRef }
  /** To the terminal's clipboard (OSC 52). */
  | { type: "copy"; text: string }
  /** Shown in $PAGER on the terminal, the view suspended meanwhile. */
  | { type: "page"; text: string }
  /** Read a checkpoint commit's diff; it comes back as a diff-loaded input. */
  | { type: "load-diff"; commit: string }
  /** Open a file of the session's worktree (a path in the repository) in $EDITOR. */
  | { type: "edit"; path: string };

export interface ViewStep {
  view: ViewState;
  effects: ViewEffect[];
}
