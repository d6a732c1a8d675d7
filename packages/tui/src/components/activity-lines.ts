import { withoutSignals } from "../state/signals.js";
import { wordWrap } from "./lines.js";
import type { Tone, TuiState } from "../state/types.js";

// The activity as lines, walked from the newest up: only what a render needs is built, so the cost
// of a frame does not depend on how long the session has run. A line's key (entry id and part) is
// stable, which lets a scrolled view stay on the line it shows while new lines arrive below.

export interface ActivityLine {
  key: string;
  text: string;
  tone: Tone;
  /** The activity entry the line belongs to (null for streamed text not yet settled). */
  entry: number | null;
}

/**
 * Lines of the response being streamed, all of them from its start, wrapped at the pane's `width` so
 * it reads whole while it streams (a line's key is its index, so a view scrolled up into the response
 * stays put as it grows). Wrapped once per text: a frame walks them several times, and only the
 * visible ones become Ink elements. (Wrapped, not cut: a cut line's "…" sends Ink's width measuring
 * down its slow path, which made showing the whole response cost twice the render time.)
 */
function streamingLines(state: TuiState, width: number): string[] {
  const text = state.streaming?.text ?? "";
  if (text !== lastStream.text || width !== lastStream.width)
    lastStream = {
      text,
      width,
      lines: text.trim()
        ? withoutSignals(text)
            .split("\n")
            .flatMap((l) => wordWrap(l, width - 2))
        : [],
    };
  return lastStream.lines;
}

let lastStream: { text: string; width: number; lines: string[] } = { text: "", width: 0, lines: [] };

/** Calls `visit` for each line from the newest up until it returns false. */
function walkLines(state: TuiState, width: number, visit: (line: ActivityLine) => boolean): void {
  {
    const live = streamingLines(state, width);
    for (let i = live.length - 1; i >= 0; i--) if (!visit({ key: `s${i}`, text: `  ${live[i]}`, tone: "text", entry: null })) return;
  }
  for (let e = state.activity.length - 1; e >= 0; e--) {
    const entry = state.activity[e]!;
    const parts = entry.text.split("\n");
    for (let p = parts.length - 1; p >= 0; p--) {
      if (!visit({ key: `${entry.id}:${p}`, text: entry.tone === "text" ? `  ${parts[p]}` : parts[p]!, tone: entry.tone, entry: entry.id }))
        return;
    }
  }
}

/** `rows` lines ending `offset` lines up from the newest, top to bottom. */
export function visibleLines(state: TuiState, { rows, width }: PaneSize, offset: number): ActivityLine[] {
  const lines: ActivityLine[] = [];
  const need = rows + Math.max(0, offset);
  walkLines(state, width, (line) => lines.push(line) < need);
  return lines.slice(offset, offset + rows).reverse();
}

function lineCount(state: TuiState, width: number): number {
  let n = 0;
  walkLines(state, width, () => (n++, true));
  return n;
}

/** How many lines up from the newest the line with `key` is; -1 when it is gone. */
function indexOfKey(state: TuiState, width: number, key: string): number {
  let n = 0;
  let found = -1;
  walkLines(state, width, (line) => {
    if (line.key === key) found = n;
    n++;
    return found === -1;
  });
  return found;
}

/** The line `index` lines up from the newest (null past the oldest). */
export function lineAt(state: TuiState, width: number, index: number): ActivityLine | null {
  let n = 0;
  let found: ActivityLine | null = null;
  walkLines(state, width, (line) => {
    if (n++ === index) found = line;
    return found === null;
  });
  return found;
}

/** How many lines up from the newest the last line of entry `id` is; -1 when it is gone. */
export function offsetOfEntry(state: TuiState, width: number, id: number): number {
  let n = 0;
  let found = -1;
  walkLines(state, width, (line) => {
    if (line.entry === id) found = n;
    n++;
    return found === -1;
  });
  return found;
}

/** Where the activity view is: `offset` lines up from the newest, held on the line `anchor`. */
export interface ActivityScroll {
  offset: number;
  anchor: string | null;
}

export const FOLLOW: ActivityScroll = { offset: 0, anchor: null };

/** The offset to draw now: the anchored line where it moved to, never past the oldest line. */
export function resolveOffset(state: TuiState, scroll: ActivityScroll, { rows, width }: PaneSize): number {
  if (scroll.offset <= 0) return 0;
  const at = scroll.anchor === null ? -1 : indexOfKey(state, width, scroll.anchor);
  const offset = at >= 0 ? at : scroll.offset;
  return Math.max(0, Math.min(offset, lineCount(state, width) - rows));
}

/** A new scroll position, `offset` lines up (clamped to the oldest line), anchored on its line. */
export function scrollTo(state: TuiState, offset: number, { rows, width }: PaneSize): ActivityScroll {
  const clamped = Math.max(0, Math.min(offset, lineCount(state, width) - rows));
  return clamped === 0 ? FOLLOW : { offset: clamped, anchor: lineAt(state, width, clamped)?.key ?? null };
}

/** The activity offset that puts the start of the previous (-1) or next (+1) iteration at the top. */
export function jumpIteration(state: TuiState, { rows, width }: PaneSize, offset: number, direction: -1 | 1): number {
  // Count lines from the bottom to each iteration marker, then pick the nearest one past the view.
  const markers: number[] = [];
  let fromBottom = streamingLines(state, width).length;
  for (let e = state.activity.length - 1; e >= 0; e--) {
    const entry = state.activity[e]!;
    fromBottom += entry.text.split("\n").length;
    if (entry.text.startsWith("-- iteration ")) markers.push(Math.max(0, fromBottom - rows));
  }
  const candidates = direction === -1 ? markers.filter((m) => m > offset) : markers.filter((m) => m < offset).reverse();
  return candidates[0] ?? (direction === -1 ? offset : 0);
}

/** The activity's lines of text (its title row not counted) and its width. */
export interface PaneSize {
  rows: number;
  width: number;
}
