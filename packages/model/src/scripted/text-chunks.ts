/** Splits text into pieces of at least `size` characters, cut after whitespace, so deltas look natural. */
export function chunkText(text: string, size: number): string[] {
  const pieces: string[] = [];
  let current = "";
  for (const word of text.match(/\s*\S+\s*/g) ?? [text]) {
    current += word;
    if (current.length >= size) {
      pieces.push(current);
      current = "";
    }
  }
  if (current) pieces.push(current);
  return pieces;
}
