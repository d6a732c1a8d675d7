import { neutralizeControls } from "@hatloop/core";

/** Session content made harmless to the terminal (no escape sequences, 7-bit or 8-bit); tabs as spaces. */
export function clean(text: string): string {
  return neutralizeControls(text.replace(/\t/g, "  "));
}

/** Cuts a line of content to `width` columns, marking the cut. */
export function fit(text: string, width: number): string {
  if (width <= 0) return "";
  const line = clean(text);
  return line.length > width ? `${line.slice(0, Math.max(0, width - 1))}…` : line;
}

/** Up to `height` lines of `lines`, skipping `offset` from the end (0 = the newest). */
export function windowOf<T>(lines: T[], height: number, offset: number): { visible: T[]; offset: number } {
  const max = Math.max(0, lines.length - height);
  const clamped = Math.min(Math.max(0, offset), max);
  const end = lines.length - clamped;
  return { visible: lines.slice(Math.max(0, end - height), end), offset: clamped };
}

/** Lines of `text` wrapped at `width` columns (nothing is cut: an opened entry shows whole). */
export function wrapLines(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (const raw of clean(text).split("\n")) {
    const line = raw.replace(/\s+$/, "");
    if (line.length <= w) out.push(line);
    else for (let i = 0; i < line.length; i += w) out.push(line.slice(i, i + w));
  }
  return out;
}

/** One line of prose wrapped at `width` columns between words (a word longer than a line is split). */
export function wordWrap(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  let rest = clean(text).trim();
  while (rest.length > w) {
    const space = rest.lastIndexOf(" ", w);
    const cut = space > 0 ? space : w;
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  out.push(rest);
  return out;
}
