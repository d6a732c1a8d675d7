import { jumpIteration, offsetOfEntry, resolveOffset, scrollTo } from "../components/activity-lines.js";
import { matchesOf, stepMatch } from "../components/activity-search.js";
import { detailFor, selectionOf } from "../components/activity-selection.js";
import { checklistLines } from "../components/checklist-lines.js";
import { clampTop } from "../components/detail-lines.js";
import { editDraft, EMPTY_DRAFT, typeText } from "../components/line-editor.js";
import { isLiveStatus } from "../state/initial.js";
import type { Tone } from "../state/types.js";
import type { Focus, Keys, ViewContext, ViewEffect, ViewInput, ViewState, ViewStep } from "./view-state.js";

// The run view's keys (docs/tui.md has the table) as a pure function of the view's state: what a
// key changes, and what it asks the loop or the CLI to do, as data.

const FOCUS_ORDER: Focus[] = ["activity", "checklist", "scratchpad"];

const step = (view: ViewState, ...effects: ViewEffect[]): ViewStep => ({ view, effects });
const notice = (text: string, tone: Tone): ViewEffect => ({ type: "notice", text, tone });

export function reduceView(view: ViewState, input: ViewInput, ctx: ViewContext): ViewStep {
  if (input.type === "key") return onKey(view, input.input, input.key, ctx, input.followed ?? false);
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
  if (overlay === "help") return step({ ...view, overlay: null });
  if (overlay === "quit") {
    if (input === "y")
      return ctx.controls
        ? step({ ...view, overlay: null }, notice("quitting: the loop stops now and pauses with a checkpoint", "warn"), { type: "quit" })
        : step({ ...view, overlay: null }, { type: "quit" });
    return step(input === "n" || key.escape ? { ...view, overlay: null } : view);
  }
  if (overlay === "steer" || overlay === "answer" || overlay === "search") return promptKey(view, overlay, input, key, ctx, followed);
  if (overlay === "detail") return step(detailKey(view, input, key, ctx));
  if (key.escape && view.query !== null) return step(search(view, null, ctx));
  if (key.return) return openSelected(view, ctx);
  if (input === "/") return step({ ...view, overlay: "search" });
  if ((input === "n" || input === "N") && view.query !== null)
    return step(select(view, stepMatch(matchesOf(ctx.tui, view.query), view.selected, input === "n" ? 1 : -1), ctx));
  if (input === "q") return ctx.controls ? step({ ...view, overlay: "quit" }) : step(view, { type: "quit" });
  if (input === "?") return step({ ...view, overlay: "help" });
  if (key.tab) return step({ ...view, focus: FOCUS_ORDER[(FOCUS_ORDER.indexOf(view.focus) + 1) % FOCUS_ORDER.length]! });
  const delta = scrollDelta(view.focus, key, ctx);
  if (delta !== null) return step(scroll(view, delta, ctx));
  if (input === "[" || input === "]") return step(jump(view, input === "[" ? -1 : 1, ctx));
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
  prompt: "steer" | "answer" | "search",
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
  if (text && prompt === "answer") return step(closed, { type: "answer", text }, notice(`answer sent: ${text}`, "you"));
  if (text) return step(closed, { type: "steer", text }, notice(`steering queued for the next iteration: ${text}`, "you"));
  return step(closed);
}

/**
 * How far a scrolling key moves the focused pane: lines towards the oldest (activity, checklist) or
 * down (scratchpad), ±Infinity for Home/End; null for any other key.
 */
function scrollDelta(focus: Focus, key: Keys, { panes }: ViewContext): number | null {
  if (key.upArrow) return 1;
  if (key.downArrow) return -1;
  const page = Math.max(1, (focus === "activity" ? panes.activity : focus === "checklist" ? panes.checklist : panes.scratchpad).rows - 1);
  if (key.pageUp) return page;
  if (key.pageDown) return -page;
  if (key.home) return focus === "scratchpad" ? -Infinity : Infinity;
  if (key.end) return focus === "scratchpad" ? Infinity : -Infinity;
  return null;
}

function scroll(view: ViewState, delta: number, { tui, panes }: ViewContext): ViewState {
  const pane = view.focus;
  if (pane === "activity") {
    const current = resolveOffset(tui, view.activity, panes.activity);
    const to = delta === Infinity ? Number.MAX_SAFE_INTEGER : delta === -Infinity ? 0 : current + delta;
    return { ...view, selected: null, activity: scrollTo(tui, to, panes.activity) };
  }
  const max =
    pane === "checklist"
      ? Math.max(0, checklistLines(tui, panes.checklist.width).length - panes.checklist.rows)
      : Math.max(0, (tui.scratchpad ? tui.scratchpad.split("\n").length : 0) - panes.scratchpad.rows);
  const down = pane === "scratchpad" ? -delta : delta;
  const to = down === Infinity ? max : down === -Infinity ? 0 : view.side[pane] + down;
  return { ...view, side: { ...view.side, [pane]: Math.max(0, Math.min(to, max)) } };
}

/** [ and ]: the activity, at the start of the previous or next iteration. */
function jump(view: ViewState, direction: -1 | 1, { tui, panes }: ViewContext): ViewState {
  const current = resolveOffset(tui, view.activity, panes.activity);
  const to = jumpIteration(tui, panes.activity, current, direction);
  return { ...view, focus: "activity", selected: null, activity: scrollTo(tui, to, panes.activity) };
}

/** Selects entry `id` (a search's match) and scrolls its last line to the bottom of the view. */
function select(view: ViewState, id: number | null, { tui, panes }: ViewContext): ViewState {
  const at = id === null ? -1 : offsetOfEntry(tui, panes.activity.width, id);
  return { ...view, selected: id, activity: at >= 0 ? scrollTo(tui, at, panes.activity) : view.activity };
}

/** A search for `query` (none: the search ends), at its newest match. */
function search(view: ViewState, query: string | null, ctx: ViewContext): ViewState {
  const searched = { ...view, query: query || null };
  return select(searched, query ? stepMatch(matchesOf(ctx.tui, query), null, 1) : null, ctx);
}

/** Enter: the selected entry opened whole, at once with what its event carried; its stored content is asked for. */
function openSelected(view: ViewState, { tui, panes, canLoadDetails }: ViewContext): ViewStep {
  const offset = resolveOffset(tui, view.activity, panes.activity);
  const opened = detailFor(tui, selectionOf(tui, view.selected, offset, panes.activity.width));
  if (!opened) return step(view);
  const ref = canLoadDetails ? opened.ref : undefined;
  const detail = { title: opened.title, text: opened.body, note: ref ? "loading the whole content from the store…" : null, top: 0 };
  const next: ViewState = { ...view, overlay: "detail", detail, opened: view.opened + 1 };
  return ref ? step(next, { type: "load", opened: next.opened, ref }) : step(next);
}

/** A key while an entry is open: ↑↓ PgUp PgDn Home End scroll it, Esc or q closes it. */
function detailKey(view: ViewState, input: string, key: Keys, { panes }: ViewContext): ViewState {
  const current = view.detail;
  if (!current || key.escape || input === "q") return { ...view, overlay: null, detail: null };
  const { width, rows: height } = panes.body;
  const page = Math.max(1, height - 2);
  const top = clampTop(current, width, height);
  const next = key.upArrow
    ? top - 1
    : key.downArrow
      ? top + 1
      : key.pageUp
        ? top - page
        : key.pageDown
          ? top + page
          : key.home
            ? 0
            : key.end
              ? Number.MAX_SAFE_INTEGER
              : null;
  return next === null ? view : { ...view, detail: { ...current, top: clampTop({ ...current, top: next }, width, height) } };
}
