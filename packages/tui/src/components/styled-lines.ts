import { clean } from "./lines.js";

// Text as wrapped lines of styled spans: the model's Markdown (the subset it writes: headings, lists,
// quotes, fenced code, **bold** and `code`) and any entry's plain text, wrapped between words at the
// pane's width with a hanging indent, never cut. A search's matches are marked on the lines drawn.

export type SpanStyle = "bold" | "code" | "heading" | "quote" | "block" | "match";

export interface Span {
  text: string;
  style?: SpanStyle;
}

/** A line of at most the width it was wrapped at; `spans` is null when it is plain. */
export interface StyledLine {
  text: string;
  spans: Span[] | null;
}

/** Plain text wrapped at `width`, each line's continuations under its text (its leading spaces kept). */
export function plainLines(text: string, width: number): StyledLine[] {
  return clean(text)
    .split("\n")
    .flatMap((line) => {
      const indent = /^\s*/.exec(line)![0].length;
      return wrapSpans([{ text: line.trimEnd() }], width, " ".repeat(indent < width / 2 ? indent : 0), "");
    });
}

const FENCE = /^\s*(```|~~~)/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*)$/;
const BULLET = /^(\s*)([-*+]|\d{1,3}[.)])\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;

/** Markdown as the terminal can show it: markers become layout and styles, nothing of the text is lost. */
export function markdownLines(text: string, width: number): StyledLine[] {
  const out: StyledLine[] = [];
  let fenced = false;
  for (const raw of clean(text).split("\n")) {
    const line = raw.trimEnd();
    if (FENCE.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      out.push(...wrapSpans([{ text: line || " ", style: "block" }], width, "│ ", "│ "));
      continue;
    }
    const heading = HEADING.exec(line);
    const bullet = heading ? null : BULLET.exec(line);
    const quote = heading || bullet ? null : QUOTE.exec(line);
    if (heading) out.push(...wrapSpans(inline(heading[2]!, "heading"), width, "", ""));
    else if (bullet) {
      const mark = /\d/.test(bullet[2]!) ? `${bullet[2]} ` : "• ";
      const lead = " ".repeat(Math.min(bullet[1]!.length, 8));
      out.push(...wrapSpans(inline(bullet[3]!), width, lead + " ".repeat(mark.length), lead + mark));
    } else if (quote) out.push(...wrapSpans(inline(quote[1]!, "quote"), width, "│ ", "│ "));
    else out.push(...wrapSpans(inline(line), width, "", ""));
  }
  return out;
}

const INLINE = /(`+)([^`]+?)\1|\*\*([^*]+?)\*\*|__([^_]+?)__/g;

/** `code` and **bold** as spans (their markers dropped); the rest in `base`. */
function inline(text: string, base?: SpanStyle): Span[] {
  const spans: Span[] = [];
  let at = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > at) spans.push(styled(text.slice(at, m.index), base));
    spans.push(m[2] !== undefined ? { text: m[2], style: "code" } : { text: (m[3] ?? m[4])!, style: base ?? "bold" });
    at = m.index + m[0].length;
  }
  if (at < text.length || spans.length === 0) spans.push(styled(text.slice(at), base));
  return spans;
}

const styled = (text: string, style?: SpanStyle): Span => (style ? { text, style } : { text });

/**
 * Spans wrapped at `width` between words (a word longer than a line is split), the first line after
 * `first` and the others after `rest` (a list item's text stays right of its bullet).
 */
function wrapSpans(spans: Span[], width: number, rest: string, first: string): StyledLine[] {
  const text = spans.map((s) => s.text).join("");
  const lines: StyledLine[] = [];
  let start = 0;
  do {
    const lead = lines.length === 0 ? first : rest;
    const room = Math.max(1, width - lead.length);
    // Spaces at a line's start are the text's own indent only on its first line.
    if (lines.length > 0) while (text[start] === " ") start++;
    let end = Math.min(text.length, start + room);
    if (end < text.length) {
      const space = text.lastIndexOf(" ", end);
      if (space > start) end = space;
    }
    lines.push(lineOf(spans, start, end, lead));
    start = end;
  } while (start < text.length && text.slice(start).trim() !== "");
  return lines;
}

/** The part [start, end) of the spans' text as a line, after `lead`. */
function lineOf(spans: Span[], start: number, end: number, lead: string): StyledLine {
  const parts: Span[] = lead
    ? [{ text: lead, ...(spans[0]?.style === "block" || spans[0]?.style === "quote" ? { style: "quote" as const } : {}) }]
    : [];
  let at = 0;
  for (const span of spans) {
    const from = Math.max(start, at);
    const to = Math.min(end, at + span.text.length);
    if (to > from) parts.push(styled(span.text.slice(from - at, to - at), span.style));
    at += span.text.length;
  }
  const text = parts.map((p) => p.text).join("");
  return { text, spans: parts.some((p) => p.style) ? parts : null };
}

/** The line's spans with every case-insensitive occurrence of `query` marked as a match. */
export function highlight(line: StyledLine, query: string | null): Span[] | null {
  if (!query) return line.spans;
  const lower = line.text.toLowerCase();
  const q = query.toLowerCase();
  let found = lower.indexOf(q);
  if (found === -1) return line.spans;
  const base = line.spans ?? [{ text: line.text }];
  const marks: Array<[number, number]> = [];
  while (found !== -1) {
    marks.push([found, found + q.length]);
    found = lower.indexOf(q, found + q.length);
  }
  const out: Span[] = [];
  let at = 0;
  for (const span of base) {
    const end = at + span.text.length;
    let cursor = at;
    for (const [from, to] of marks) {
      if (to <= cursor || from >= end) continue;
      if (from > cursor) out.push(styled(span.text.slice(cursor - at, from - at), span.style));
      const stop = Math.min(to, end);
      out.push({ text: span.text.slice(Math.max(from, cursor) - at, stop - at), style: "match" });
      cursor = stop;
    }
    if (cursor < end) out.push(styled(span.text.slice(cursor - at), span.style));
    at = end;
  }
  return out;
}
