import type { TuiState } from "../state/types.js";
import { changesOf, type ChangedFile } from "./diff-files.js";
import { wrapLines } from "./lines.js";

// The files view's state and geometry (lazygit's two panes): which checkpoint, which of its files,
// how far its diff is scrolled, and the commit's diff as loaded from the worktree.

export interface FilesView {
  /** The checkpoint shown, counted back from the newest (0). */
  back: number;
  /** The selected file, an index into the commit's files. */
  file: number;
  /** The first diff line shown. */
  top: number;
  /** The shown checkpoint's diff: null while it loads; `error` when it cannot be read here. */
  loaded: { commit: string; text: string | null; error: string | null } | null;
}

export const NEW_FILES: FilesView = { back: 0, file: 0, top: 0, loaded: null };

/** The checkpoint `back` from the newest (null when the session committed nothing yet). */
export function checkpointOf(state: TuiState, back: number): TuiState["checkpoints"][number] | null {
  return state.checkpoints[state.checkpoints.length - 1 - back] ?? null;
}

/** The shown commit's files, once its diff is here. */
export function filesOf(view: FilesView): ChangedFile[] {
  return view.loaded?.text ? changesOf(view.loaded.text).files : [];
}

/** The list's width: a third of the view, between 20 and 48 columns; the diff has the rest. */
export function listWidth(columns: number): number {
  return Math.max(20, Math.min(48, Math.floor(columns / 3)));
}

/** The selected file's diff lines wrapped to the diff pane (cut nowhere), with each line's source line. */
export function diffLines(file: ChangedFile | undefined, width: number): Array<{ text: string; source: string }> {
  if (!file) return [];
  const key = `${width}`;
  const kept = wrapped.get(file);
  if (kept?.key === key) return kept.lines;
  const lines = file.diff.flatMap((source) => wrapLines(source, width).map((text) => ({ text, source })));
  wrapped.set(file, { key, lines });
  return lines;
}

const wrapped = new WeakMap<ChangedFile, { key: string; lines: Array<{ text: string; source: string }> }>();

/** The diff pane's width and rows for a body of `columns` x `rows` (title row and the gap counted out). */
export function diffPane(columns: number, rows: number): { width: number; rows: number } {
  return { width: Math.max(10, columns - listWidth(columns) - 1), rows: Math.max(1, rows - 1) };
}
