import { SUMMARY_SECTIONS } from "./summary-sections.js";

// Accepts the summarizer's answer only when it has the shape we asked for: the <analysis> scratch
// pass is removed, and all seven sections must be present as headings. Anything else is null, and
// the caller falls back to the mechanical summary (a half-summary would silently lose state).

export function parseStructuredSummary(text: string): string | null {
  let body = withoutAnalysis(text);
  if (body === null) return null;
  const wrapped = /<summary>([\s\S]*?)<\/summary>/i.exec(body);
  if (wrapped) body = wrapped[1] ?? "";
  body = body.trim();
  if (body === "") return null;
  return missingSections(body).length === 0 ? body : null;
}

/** Everything outside the analysis: before its first opening and after its last closing tag. */
function withoutAnalysis(text: string): string | null {
  const open = text.search(/<analysis>/i);
  if (open === -1) return text;
  const closes = [...text.matchAll(/<\/analysis>/gi)];
  const last = closes[closes.length - 1];
  if (last === undefined || last.index < open) return null; // cut off inside its reasoning
  return text.slice(0, open) + text.slice(last.index + last[0].length);
}

/** Titles of the seven sections that do not appear as a heading ("## 3. Files & Code", "**Files & Code**", "Files & Code:"). */
export function missingSections(text: string): string[] {
  const headings = text.split("\n").flatMap(headingText);
  return SUMMARY_SECTIONS.filter((s) => !headings.some((h) => h.startsWith(s.title.toLowerCase()))).map((s) => s.title);
}

const HEADING_MARK = /^(#{1,6}\s+|\d+[.)]\s+|\*\*|__)+/;

/** The lower-cased title of a heading-like line, or nothing for ordinary prose. */
function headingText(line: string): string[] {
  const trimmed = line.trim();
  const mark = HEADING_MARK.exec(trimmed);
  const title = trimmed
    .slice(mark?.[0].length ?? 0)
    .replace(/\*\*|__/g, "")
    .trim()
    .toLowerCase();
  // Unmarked lines count only when they are nothing but a title ("Pending Tasks:").
  if (!mark && !SUMMARY_SECTIONS.some((s) => title.replace(/:$/, "") === s.title.toLowerCase())) return [];
  return [title];
}
