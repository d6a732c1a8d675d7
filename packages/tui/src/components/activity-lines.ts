import { withoutSignals } from "../state/signals.js";
import type { ActivityEntry, Tone, TuiState } from "../state/types.js";
import { markdownLines, plainLines, type Span, type StyledLine } from "./styled-lines.js";

// The activity as lines, walked from the newest up: only what a render needs is built, so the cost
// of a frame does not depend on how long the session has run. A line's key (entry id and part) is
// stable, which lets a scrolled view stay on the line it shows while new lines arrive below.

export interface ActivityLine {
  key: string;
  text: string;
  /** Styled parts of the text (Markdown, a folded iteration's count); null when plain. */
  spans: Span[] | null;
  tone: Tone;
  /** The activity entry the line belongs to (null for streamed text not yet settled). */
  entry: number | null;
}

/** How the activity is laid out: the pane's width and the iterations folded to their header. */
export interface ActivityShape {
  width: number;
  folded?: ReadonlySet<number>;
}

const TEXT_INDENT = "  ";

/** The model's text as rendered Markdown, indented under the other entries. */
function textLines(text: string, width: number): StyledLine[] {
  return markdownLines(text, width - TEXT_INDENT.length).map((line) => ({
    text: TEXT_INDENT + line.text,
    spans: line.spans && [{ text: TEXT_INDENT }, ...line.spans],
  }));
}

/**
 * Lines of the response being streamed, all of them from its start, wrapped at the pane's `width` so
 * it reads whole while it streams (a line's key is its index, so a view scrolled up into the response
 * stays put as it grows). Rendered once per text: a frame walks them several times, and only the
 * visible ones become Ink elements. (Wrapped, not cut: a cut line's "…" sends Ink's width measuring
 * down its slow path, which made showing the whole response cost twice the render time.)
 */
function streamingLines(state: TuiState, width: number): StyledLine[] {
  const text = state.streaming?.text ?? "";
  if (text !== lastStream.text || width !== lastStream.width)
    lastStream = { text, width, lines: text.trim() ? textLines(withoutSignals(text), width) : [] };
  return lastStream.lines;
}

let lastStream: { text: string; width: number; lines: StyledLine[] } = { text: "", width: 0, lines: [] };

/** An entry's lines at a width, kept with the entry until its text or the width changes (a header's text does). */
const entryCache = new WeakMap<ActivityEntry, { text: string; width: number; lines: StyledLine[] }>();

function entryLines(entry: ActivityEntry, width: number): StyledLine[] {
  const kept = entryCache.get(entry);
  if (kept && kept.text === entry.text && kept.width === width) return kept.lines;
  const lines = entry.tone === "text" ? textLines(entry.text, width) : plainLines(entry.text, width);
  entryCache.set(entry, { text: entry.text, width, lines });
  return lines;
}

/** A folded iteration's header: the header, then how many entries it hides. */
function foldedHeader(line: StyledLine, hidden: number, width: number): StyledLine {
  const note = ` ▸ ${hidden} ${hidden === 1 ? "entry" : "entries"} folded (z)`;
  const head = line.text.length + note.length > width ? line.text.slice(0, Math.max(0, width - note.length)) : line.text;
  return { text: head + note, spans: [{ text: head }, { text: note, style: "quote" }] };
}

/** Calls `visit` for each line from the newest up until it returns false; folded iterations show their header only. */
function walkLines(state: TuiState, { width, folded }: ActivityShape, visit: (line: ActivityLine) => boolean): void {
  const isFolded = (iteration: number) => folded !== undefined && folded.has(iteration);
  if (state.streaming && !isFolded(state.streaming.iteration)) {
    const live = streamingLines(state, width);
    for (let i = live.length - 1; i >= 0; i--) if (!visit({ key: `s${i}`, ...live[i]!, tone: "text", entry: null })) return;
  }
  let hidden = 0;
  for (let e = state.activity.length - 1; e >= 0; e--) {
    const entry = state.activity[e]!;
    const header = entry.tone === "iteration";
    if (isFolded(entry.iteration) && !header) {
      hidden++;
      continue;
    }
    const lines = entryLines(entry, width);
    for (let p = lines.length - 1; p >= 0; p--) {
      const line = header && p === 0 && isFolded(entry.iteration) ? foldedHeader(lines[p]!, hidden, width) : lines[p]!;
      if (!visit({ key: `${entry.id}:${p}`, ...line, tone: entry.tone, entry: entry.id })) return;
    }
    if (header) hidden = 0;
  }
}

/** `rows` lines ending `offset` lines up from the newest, top to bottom. */
export function visibleLines(state: TuiState, pane: PaneSize, offset: number): ActivityLine[] {
  const lines: ActivityLine[] = [];
  const need = pane.rows + Math.max(0, offset);
  walkLines(state, pane, (line) => lines.push(line) < need);
  return lines.slice(offset, offset + pane.rows).reverse();
}

function lineCount(state: TuiState, shape: ActivityShape): number {
  let n = 0;
  walkLines(state, shape, () => (n++, true));
  return n;
}

/** How many lines up from the newest the first line that `matches` is; -1 when none is. */
function indexWhere(state: TuiState, shape: ActivityShape, matches: (line: ActivityLine) => boolean): number {
  let n = 0;
  let found = -1;
  walkLines(state, shape, (line) => {
    if (matches(line)) found = n;
    n++;
    return found === -1;
  });
  return found;
}

/** The line `index` lines up from the newest (null past the oldest). */
export function lineAt(state: TuiState, shape: ActivityShape, index: number): ActivityLine | null {
  let n = 0;
  let found: ActivityLine | null = null;
  walkLines(state, shape, (line) => {
    if (n++ === index) found = line;
    return found === null;
  });
  return found;
}

/** How many lines up from the newest the last line of entry `id` is; -1 when it is gone. */
export function offsetOfEntry(state: TuiState, shape: ActivityShape, id: number): number {
  return indexWhere(state, shape, (line) => line.entry === id);
}

/** Where the activity view is: `offset` lines up from the newest, held on the line `anchor`. */
export interface ActivityScroll {
  offset: number;
  anchor: string | null;
}

export const FOLLOW: ActivityScroll = { offset: 0, anchor: null };

/** The offset to draw now: the anchored line where it moved to, never past the oldest line. */
export function resolveOffset(state: TuiState, scroll: ActivityScroll, pane: PaneSize): number {
  if (scroll.offset <= 0) return 0;
  const at = scroll.anchor === null ? -1 : indexWhere(state, pane, (line) => line.key === scroll.anchor);
  const offset = at >= 0 ? at : scroll.offset;
  return Math.max(0, Math.min(offset, lineCount(state, pane) - pane.rows));
}

/** A new scroll position, `offset` lines up (clamped to the oldest line), anchored on its line. */
export function scrollTo(state: TuiState, offset: number, pane: PaneSize): ActivityScroll {
  const clamped = Math.max(0, Math.min(offset, lineCount(state, pane) - pane.rows));
  return clamped === 0 ? FOLLOW : { offset: clamped, anchor: lineAt(state, pane, clamped)?.key ?? null };
}

const HEADER = /^-- iteration \d+ · (.+?) --/;

/**
 * The activity offset that puts the start of the previous (-1) or next (+1) iteration at the top, or
 * with `by: "hat"` of the previous or next iteration that a new hat starts.
 */
export function jumpIteration(
  state: TuiState,
  pane: PaneSize,
  offset: number,
  direction: -1 | 1,
  by: "iteration" | "hat" = "iteration",
): number {
  // Each iteration header's first line, counted from the bottom, newest first, with its hat.
  const headers: Array<{ offset: number; hat: string }> = [];
  let n = 0;
  walkLines(state, pane, (line) => {
    n++;
    if (line.tone === "iteration" && line.key.endsWith(":0"))
      headers.push({ offset: Math.max(0, n - pane.rows), hat: HEADER.exec(line.text)?.[1] ?? "" });
    return true;
  });
  const markers = headers.filter((h, i) => by === "iteration" || h.hat !== headers[i + 1]?.hat).map((h) => h.offset);
  const candidates = direction === -1 ? markers.filter((m) => m > offset) : markers.filter((m) => m < offset).reverse();
  return candidates[0] ?? (direction === -1 ? offset : 0);
}

/** The activity's lines of text (its title row not counted), its width and its folded iterations. */
export interface PaneSize extends ActivityShape {
  rows: number;
}
