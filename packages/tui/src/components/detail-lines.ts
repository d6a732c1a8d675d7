import { wrapLines } from "./lines.js";

// An opened entry's content as lines, and where its view starts: what DetailOverlay draws and what
// the view's keys scroll.

/** What is open: the entry's title, its content, and a note while the stored content loads (or why it did not). */
export interface DetailView {
  title: string;
  text: string;
  note: string | null;
  /** The first line shown. */
  top: number;
}

let wrapped: { text: string; width: number; lines: string[] } = { text: "", width: 0, lines: [] };

/** The content's lines at `width` (kept for the last text: keys and frames ask for them again and again). */
export function detailLines(text: string, width: number): string[] {
  if (wrapped.text !== text || wrapped.width !== width) wrapped = { text, width, lines: wrapLines(text, width) };
  return wrapped.lines;
}

/** The first line shown when the view is `height` rows tall (title included), kept within the content. */
export function clampTop(view: DetailView, width: number, height: number): number {
  return Math.max(0, Math.min(view.top, detailLines(view.text, width).length - Math.max(1, height - (view.note ? 2 : 1))));
}
