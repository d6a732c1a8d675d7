import { jumpIteration, offsetOfEntry, resolveOffset, scrollTo, visibleLines, type PaneSize } from "../components/activity-lines.js";
import { matchesOf, stepMatch } from "../components/activity-search.js";
import { detailFor, selectionOf } from "../components/activity-selection.js";
import { checklistLines } from "../components/checklist-lines.js";
import { clampTop } from "../components/detail-lines.js";
import { editDraft, EMPTY_DRAFT, typeText } from "../components/line-editor.js";
import { parseDollars } from "../components/cost-lines.js";
import { isLiveStatus } from "../state/initial.js";
import type { Tone, TuiState } from "../state/types.js";
import { mouseOf, type Mouse } from "../terminal/mouse.js";
import { diffLoaded, filesKey, openFiles } from "./files-keys.js";
import { NO_FLAGS } from "./split-keys.js";
import type { Focus, Keys, ViewContext, ViewEffect, ViewInput, ViewState, ViewStep } from "./view-state.js";

// The run view's keys (docs/tui.md has the table) as a pure function of the view's state: what a
// key changes, and what it asks the loop or the CLI to do, as data.

const FOCUS_ORDER: Focus[] = ["activity", "checklist", "scratchpad"];

const step = (view: ViewState, ...effects: ViewEffect[]): ViewStep => ({ view, effects });

/** The activity pane as the view lays it out: the rendered size, with the view's folded iterations. */
const activityPane = (view: ViewState, { panes }: ViewContext): PaneSize => ({ ...panes.activity, folded: view.folded });
const notice = (text: string, tone: Tone): ViewEffect => ({ type: "notice", text, tone });

export function reduceView(view: ViewState, input: ViewInput, ctx: ViewContext): ViewStep {
  if (input.type === "key") return onKey(view, input.input, input.key, ctx, input.followed ?? false);
  if (input.type === "diff-loaded") return step(diffLoaded(view, input.commit, input.text, input.error, ctx));
  // A load that finishes after the entry was closed, or another one opened, is dropped.
  if (input.opened !== view.opened || !view.detail) return step(view);
  const change =
    input.type === "loaded" ? { text: input.text, note: null } : { note: `the stored content could not be read (${input.error})` };
  return step({ ...view, detail: { ...view.detail, ...change } });
}

function onKey(view: ViewState, input: string, key: Keys, ctx: ViewContext, followed: boolean): ViewStep {
  const { overlay } = view;
  // Ctrl-C works whatever is open: it closes it and interrupts (run) or detaches (watch).
  if (key.ctrl && input === "c") return step({ ...view, overlay: null, detail: null }, { type: ctx.controls ? "interrupt" : "quit" });
  // Ctrl-Z suspends the view (terminal/Suspendable.tsx); it is not z (fold).
  if (key.ctrl && input === "z") return step(view);
  // A mouse report is never text: not for a prompt's draft, nor a key of the view.
  const mouse = mouseOf(input);
  if (mouse)
    return overlay === null
      ? step(onMouse(view, mouse, ctx))
      : overlay === "detail" && mouse.type === "wheel"
        ? detailKey(view, "", wheelKey(mouse.lines), ctx)
        : step(view);
  if (overlay === "help") return step({ ...view, overlay: null });
  if (overlay === "quit") {
    if (input === "y")
      return ctx.controls
        ? step({ ...view, overlay: null }, notice("quitting: the loop stops now and pauses with a checkpoint", "warn"), { type: "quit" })
        : step({ ...view, overlay: null }, { type: "quit" });
    return step(input === "n" || key.escape ? { ...view, overlay: null } : view);
  }
  if (overlay === "steer" || overlay === "answer" || overlay === "search" || overlay === "budget")
    return promptKey(view, overlay, input, key, ctx, followed);
  // The cost panel: + asks for more budget; any other key closes it.
  if (overlay === "cost") return step({ ...view, overlay: input === "+" && ctx.canRaiseBudget ? "budget" : null });
  if (overlay === "detail") return detailKey(view, input, key, ctx);
  if (overlay === "files") return filesKey(view, input, key, ctx);
  if (key.escape && view.query !== null) return step(search(view, null, ctx));
  if (key.return) return openSelected(view, ctx);
  if (input === "y" || input === "o") return exportSelected(view, input, ctx);
  if (input === "f") return openFiles(view, ctx);
  if (input === "/") return step({ ...view, overlay: "search" });
  if ((input === "n" || input === "N") && view.query !== null)
    return step(select(view, stepMatch(matchesOf(ctx.tui, view.query), view.selected, input === "n" ? 1 : -1), ctx));
  if (input === "q") return ctx.controls ? step({ ...view, overlay: "quit" }) : step(view, { type: "quit" });
  if (input === "?") return step({ ...view, overlay: "help" });
  if (input === "$") return step({ ...view, overlay: "cost" });
  if (key.tab) return step({ ...view, focus: FOCUS_ORDER[(FOCUS_ORDER.indexOf(view.focus) + 1) % FOCUS_ORDER.length]! });
  const delta = scrollDelta(view.focus, input, key, ctx);
  if (delta !== null) return step(scroll(view, delta, ctx));
  if (input === "[" || input === "]") return step(jump(view, input === "[" ? -1 : 1, ctx, "iteration"));
  if (input === "{" || input === "}") return step(jump(view, input === "{" ? -1 : 1, ctx, "hat"));
  if (input === "e") return step(select(view, stepMatch(errorsOf(ctx.tui), view.selected, 1), ctx));
  if (input === "z" || input === "Z") return step(fold(view, input === "Z", ctx));
  if (!ctx.controls || !isLiveStatus(ctx.tui.status)) return step(view);
  if (input === ":") return step({ ...view, overlay: "steer" });
  if (input === "a" && ctx.tui.status === "waiting") return step({ ...view, overlay: "answer" });
  if (input === "s") return step(view, { type: "stop" }, notice("stopping: the current iteration finishes, then a checkpoint", "warn"));
  if (input === "p")
    return ctx.paused
      ? step(view, { type: "unpause" }, notice("continuing", "good"))
      : step(view, { type: "pause" }, notice("pausing before the next iteration (p continues)", "warn"));
  return step(view);
}

/** A key for the open prompt (steer, answer, search): edits the draft, or sends it, or discards it (Esc). */
function promptKey(
  view: ViewState,
  prompt: "steer" | "answer" | "search" | "budget",
  input: string,
  key: Keys,
  ctx: ViewContext,
  followed: boolean,
): ViewStep {
  // A newline with more keys after it in the same read is a pasted line break, not Enter: sending
  // there would make the rest of the paste the view's keys (an "s" in it would stop the run). It
  // joins the lines with a space, as the editor does; the read's last Enter sends.
  if (followed && (key.return || input === "\n")) return step({ ...view, draft: typeText(view.draft, " ") });
  const result = editDraft(view.draft, input, key);
  if ("draft" in result) return step({ ...view, draft: result.draft });
  const text = result.submit;
  const closed: ViewState = { ...view, draft: EMPTY_DRAFT, overlay: null };
  if (text !== null && prompt === "search") return step(search(closed, text, ctx));
  if (prompt === "budget") {
    const more = text ? parseDollars(text) : null;
    const back = { ...closed, overlay: "cost" as const };
    if (!text) return step(back);
    return more === null
      ? step(back, notice(`not an amount of dollars: ${text} (type 5 or $2.50)`, "error"))
      : step(back, { type: "raise", moreUsd: more });
  }
  if (text && prompt === "answer") return step(closed, { type: "answer", text }, notice(`answer sent: ${text}`, "you"));
  if (text) return step(closed, { type: "steer", text }, notice(`steering queued for the next iteration: ${text}`, "you"));
  return step(closed);
}

/**
 * How far a scrolling key moves the focused pane: lines towards the oldest (activity, checklist) or
 * down (scratchpad), ±Infinity for Home/End; null for any other key.
 */
function scrollDelta(focus: Focus, input: string, key: Keys, { panes }: ViewContext): number | null {
  const rows = (focus === "activity" ? panes.activity : focus === "checklist" ? panes.checklist : panes.scratchpad).rows;
  const moved = motion(input, key, Math.max(1, rows - 1), Math.max(1, Math.floor(rows / 2)));
  if (moved === null) return null;
  // In the panes' own terms: lines towards the oldest, except Home and End in the scratchpad, which `scroll` turns round.
  return focus === "scratchpad" && !Number.isFinite(moved) ? moved : -moved;
}

/**
 * Lines down (negative: up) that a key moves a view, ±Infinity to its end or start: the arrows,
 * PgUp PgDn Home End, and their vim keys (j k, Ctrl-D Ctrl-U half a page, g G); null for other keys.
 */
function motion(input: string, key: Keys, page: number, half: number): number | null {
  if (key.ctrl) return input === "d" ? half : input === "u" ? -half : null;
  if (key.upArrow || input === "k") return -1;
  if (key.downArrow || input === "j") return 1;
  if (key.pageUp) return -page;
  if (key.pageDown) return page;
  if (key.home || input === "g") return -Infinity;
  if (key.end || input === "G") return Infinity;
  return null;
}

function scroll(view: ViewState, delta: number, ctx: ViewContext): ViewState {
  const { tui, panes } = ctx;
  const pane = view.focus;
  if (pane === "activity") {
    const activity = activityPane(view, ctx);
    const current = resolveOffset(tui, view.activity, activity);
    const to = delta === Infinity ? Number.MAX_SAFE_INTEGER : delta === -Infinity ? 0 : current + delta;
    return { ...view, selected: null, activity: scrollTo(tui, to, activity) };
  }
  const max =
    pane === "checklist"
      ? Math.max(0, checklistLines(tui, panes.checklist.width).length - panes.checklist.rows)
      : Math.max(0, (tui.scratchpad ? tui.scratchpad.split("\n").length : 0) - panes.scratchpad.rows);
  const down = pane === "scratchpad" ? -delta : delta;
  const to = down === Infinity ? max : down === -Infinity ? 0 : view.side[pane] + down;
  return { ...view, side: { ...view.side, [pane]: Math.max(0, Math.min(to, max)) } };
}

/** [ ] and { }: the activity, at the start of the previous or next iteration, or of the previous or next hat. */
function jump(view: ViewState, direction: -1 | 1, ctx: ViewContext, by: "iteration" | "hat"): ViewState {
  const pane = activityPane(view, ctx);
  const current = resolveOffset(ctx.tui, view.activity, pane);
  const to = jumpIteration(ctx.tui, pane, current, direction, by);
  return { ...view, focus: "activity", selected: null, activity: scrollTo(ctx.tui, to, pane) };
}

/** The error entries' ids, newest first (e steps through them). */
function errorsOf(tui: TuiState): number[] {
  const ids: number[] = [];
  for (let e = tui.activity.length - 1; e >= 0; e--) if (tui.activity[e]!.tone === "error") ids.push(tui.activity[e]!.id);
  return ids;
}

/**
 * Selects entry `id` (a search's match, an error) and scrolls its last line to the bottom of the
 * view; its iteration unfolds if it was folded.
 */
function select(view: ViewState, id: number | null, ctx: ViewContext): ViewState {
  const iteration = id === null ? undefined : ctx.tui.activity.find((e) => e.id === id)?.iteration;
  const folded = iteration !== undefined && view.folded.has(iteration) ? without(view.folded, iteration) : view.folded;
  const unfolded = { ...view, folded };
  const pane = activityPane(unfolded, ctx);
  const at = id === null ? -1 : offsetOfEntry(ctx.tui, pane, id);
  return { ...unfolded, focus: "activity", selected: id, activity: at >= 0 ? scrollTo(ctx.tui, at, pane) : view.activity };
}

const without = (set: ReadonlySet<number>, item: number) => new Set([...set].filter((i) => i !== item));

/**
 * z folds (or unfolds) the iteration of the selected entry to its header line; Z folds every
 * iteration but the one under way, or unfolds them all when any is folded. The view keeps its line.
 */
function fold(view: ViewState, all: boolean, ctx: ViewContext): ViewState {
  const { tui } = ctx;
  const pane = activityPane(view, ctx);
  const offset = resolveOffset(tui, view.activity, pane);
  let folded: ReadonlySet<number>;
  if (all)
    folded =
      view.folded.size > 0
        ? new Set()
        : new Set(tui.activity.filter((e) => e.tone === "iteration" && e !== tui.current?.entry).map((e) => e.iteration));
  else {
    const at = selectionOf(tui, view.selected, offset, pane);
    const iteration = at === "stream" ? tui.streaming?.iteration : tui.activity.find((e) => e.id === at)?.iteration;
    // Only an iteration whose header is still in the buffer folds: its header is what stays.
    const header = tui.activity.find((e) => e.iteration === iteration && e.tone === "iteration");
    if (!header) return view;
    folded = view.folded.has(header.iteration) ? without(view.folded, header.iteration) : new Set([...view.folded, header.iteration]);
    // The header stays selected, where the view can show it.
    const next = { ...view, folded, selected: header.id };
    const shape = activityPane(next, ctx);
    return { ...next, activity: scrollTo(tui, offsetOfEntry(tui, shape, header.id), shape) };
  }
  return { ...view, folded, selected: null, activity: scrollTo(tui, 0, { ...pane, folded }) };
}

/** A search for `query` (none: the search ends), at its newest match. */
function search(view: ViewState, query: string | null, ctx: ViewContext): ViewState {
  const searched = { ...view, query: query || null };
  return select(searched, query ? stepMatch(matchesOf(ctx.tui, query), null, 1) : null, ctx);
}

/** The wheel scrolls the activity (or an opened entry) three lines; a click on an activity line selects its entry. */
function onMouse(view: ViewState, mouse: Mouse, ctx: ViewContext): ViewState {
  if (mouse.type === "other") return view;
  const focused = { ...view, focus: "activity" as const };
  if (mouse.type === "wheel") return scroll(focused, -mouse.lines, ctx);
  const { activityAt } = ctx.panes;
  const pane = activityPane(view, ctx);
  if (mouse.column < activityAt.column || mouse.column >= activityAt.column + pane.width) return view;
  const lines = visibleLines(ctx.tui, pane, resolveOffset(ctx.tui, view.activity, pane));
  const line = lines[mouse.row - activityAt.row];
  return line?.entry == null ? view : { ...focused, selected: line.entry };
}

/** The arrow key the wheel stands for in an opened entry (one line a notch). */
const wheelKey = (lines: number): Keys => ({ ...NO_FLAGS, [lines < 0 ? "upArrow" : "downArrow"]: true });

/** The entry Enter, y and o act on: a search's or error's match, or the entry at the bottom of the view. */
function selectedDetail(view: ViewState, ctx: ViewContext) {
  const pane = activityPane(view, ctx);
  const offset = resolveOffset(ctx.tui, view.activity, pane);
  return detailFor(ctx.tui, selectionOf(ctx.tui, view.selected, offset, pane));
}

/** y copies the selected entry (what opening it shows) to the clipboard; o shows it in $PAGER. */
function exportSelected(view: ViewState, key: "y" | "o", ctx: ViewContext): ViewStep {
  const detail = selectedDetail(view, ctx);
  if (!detail) return step(view);
  return key === "y"
    ? step(view, { type: "copy", text: detail.body }, notice(`copied: ${detail.title}`, "muted"))
    : step(view, { type: "page", text: `${detail.title}\n\n${detail.body}` });
}

/** Enter: the selected entry opened whole, at once with what its event carried; its stored content is asked for. */
function openSelected(view: ViewState, ctx: ViewContext): ViewStep {
  const { canLoadDetails } = ctx;
  const opened = selectedDetail(view, ctx);
  if (!opened) return step(view);
  const ref = canLoadDetails ? opened.ref : undefined;
  const detail = { title: opened.title, text: opened.body, note: ref ? "loading the whole content from the store…" : null, top: 0 };
  const next: ViewState = { ...view, overlay: "detail", detail, opened: view.opened + 1 };
  return ref ? step(next, { type: "load", opened: next.opened, ref }) : step(next);
}

/** A key while an entry is open: the motion keys scroll it, y copies it, o pages it, Esc or q closes it. */
function detailKey(view: ViewState, input: string, key: Keys, { panes }: ViewContext): ViewStep {
  const current = view.detail;
  if (!current || key.escape || input === "q") return step({ ...view, overlay: null, detail: null });
  if (input === "y") return step(view, { type: "copy", text: current.text }, notice(`copied: ${current.title}`, "muted"));
  if (input === "o") return step(view, { type: "page", text: `${current.title}\n\n${current.text}` });
  const { width, rows: height } = panes.body;
  const top = clampTop(current, width, height);
  const moved = motion(input, key, Math.max(1, height - 2), Math.max(1, Math.floor(height / 2)));
  if (moved === null) return step(view);
  const next = moved === Infinity ? Number.MAX_SAFE_INTEGER : moved === -Infinity ? 0 : top + moved;
  return step({ ...view, detail: { ...current, top: clampTop({ ...current, top: next }, width, height) } });
}
