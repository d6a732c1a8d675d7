import { checkpointOf, diffLines, diffPane, filesOf, NEW_FILES, type FilesView } from "../components/files-view.js";
import type { Keys, ViewContext, ViewEffect, ViewState, ViewStep } from "./view-state.js";

// The files view's keys (f opens it): ←→ (h l, [ ]) older / newer checkpoint, ↑↓ (j k) the file,
// PgUp PgDn Ctrl-U Ctrl-D Home End g G the diff, o the diff in $PAGER, e the file in $EDITOR, y
// copies the diff, Esc q f back to the activity.

const step = (view: ViewState, ...effects: ViewEffect[]): ViewStep => ({ view, effects });

/** f: the newest checkpoint's files; its diff is asked for. */
export function openFiles(view: ViewState, ctx: ViewContext): ViewStep {
  return showCheckpoint({ ...view, overlay: "files", files: NEW_FILES }, 0, ctx);
}

/** The view on checkpoint `back`, its diff asked for unless it is the one loaded. */
function showCheckpoint(view: ViewState, back: number, ctx: ViewContext): ViewStep {
  const checkpoint = checkpointOf(ctx.tui, back);
  if (!checkpoint) return step({ ...view, files: { ...NEW_FILES, back } });
  if (view.files.loaded?.commit === checkpoint.commit) return step({ ...view, files: { ...view.files, back } });
  return step({ ...view, files: { back, file: 0, top: 0, loaded: null } }, { type: "load-diff", commit: checkpoint.commit });
}

/** A diff read: kept when it is the shown checkpoint's (a late one for another is dropped). */
export function diffLoaded(view: ViewState, commit: string, text: string | null, error: string | null, ctx: ViewContext): ViewState {
  if (checkpointOf(ctx.tui, view.files.back)?.commit !== commit) return view;
  return {
    ...view,
    files: { ...view.files, file: 0, top: 0, loaded: { commit, text, error: text === null ? (error ?? "not readable here") : null } },
  };
}

export function filesKey(view: ViewState, input: string, key: Keys, ctx: ViewContext): ViewStep {
  const files = view.files;
  if (key.escape || input === "q" || input === "f") return step({ ...view, overlay: null });
  const count = ctx.tui.checkpoints.length;
  if (key.leftArrow || input === "h" || input === "[") return showCheckpoint(view, Math.min(count - 1, files.back + 1), ctx);
  if (key.rightArrow || input === "l" || input === "]") return showCheckpoint(view, Math.max(0, files.back - 1), ctx);
  const list = filesOf(files);
  const file = list[files.file];
  if (key.upArrow || input === "k" || key.downArrow || input === "j") {
    const next = Math.max(0, Math.min(list.length - 1, files.file + (key.upArrow || input === "k" ? -1 : 1)));
    return step(next === files.file ? view : { ...view, files: { ...files, file: next, top: 0 } });
  }
  if (!file) return step(view);
  const diff = file.diff.join("\n");
  if (input === "o" || key.return) return step(view, { type: "page", text: diff });
  if (input === "y")
    return step(view, { type: "copy", text: diff }, { type: "notice", text: `copied: the diff of ${file.path}`, tone: "muted" });
  if (input === "e") return step(view, { type: "edit", path: file.path });
  const pane = diffPane(ctx.panes.body.width, ctx.panes.body.rows);
  const max = Math.max(0, diffLines(file, pane.width).length - pane.rows);
  const half = Math.max(1, Math.floor(pane.rows / 2));
  const top = scrolled(files, input, key, pane.rows, half, max);
  return step(top === null ? view : { ...view, files: { ...files, top } });
}

function scrolled(files: FilesView, input: string, key: Keys, page: number, half: number, max: number): number | null {
  const to = key.ctrl
    ? input === "d"
      ? files.top + half
      : input === "u"
        ? files.top - half
        : null
    : key.pageDown || input === " "
      ? files.top + page
      : key.pageUp
        ? files.top - page
        : key.home || input === "g"
          ? 0
          : key.end || input === "G"
            ? max
            : null;
  return to === null ? null : Math.max(0, Math.min(max, to));
}
