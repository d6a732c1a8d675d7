/** Cuts a line to `width` columns, marking the cut. */
export function fit(text: string, width: number): string {
  if (width <= 0) return "";
  const clean = text.replace(/\t/g, "  ").replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
  return clean.length > width ? `${clean.slice(0, Math.max(0, width - 1))}…` : clean;
}

/** Up to `height` lines of `lines`, skipping `offset` from the end (0 = the newest). */
export function windowOf<T>(lines: T[], height: number, offset: number): { visible: T[]; offset: number } {
  const max = Math.max(0, lines.length - height);
  const clamped = Math.min(Math.max(0, offset), max);
  const end = lines.length - clamped;
  return { visible: lines.slice(Math.max(0, end - height), end), offset: clamped };
}
