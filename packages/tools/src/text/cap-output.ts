// Output caps keep the head (what was run, early errors) and a longer tail (the summary and the
// last errors, which matter most), with a note saying how much was cut.

function cutNote(cutChars: number): string {
  return `\n[... ${cutChars.toLocaleString("en-US")} characters cut from the middle ...]\n`;
}

/** Caps `text` at about `maxChars`, keeping 30% from the head and 70% from the tail. */
export function capHeadTail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.3);
  const tail = maxChars - head;
  return text.slice(0, head) + cutNote(text.length - head - tail) + text.slice(text.length - tail);
}

/** Collects streamed text in bounded memory: the first `headChars` and the last `tailChars`. */
export class HeadTailBuffer {
  private head = "";
  private tailChunks: string[] = [];
  private tailLength = 0;
  private total = 0;

  constructor(
    private readonly headChars: number,
    private readonly tailChars: number,
  ) {}

  push(chunk: string): void {
    this.total += chunk.length;
    if (this.head.length < this.headChars) {
      const room = this.headChars - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (chunk.length === 0) return;
    }
    this.tailChunks.push(chunk);
    this.tailLength += chunk.length;
    // Compact now and then instead of on every chunk, so pushing stays cheap.
    if (this.tailLength > this.tailChars * 2) this.compactTail();
  }

  get totalChars(): number {
    return this.total;
  }

  /** Characters dropped between head and tail. */
  get cutChars(): number {
    return Math.max(0, this.total - this.head.length - Math.min(this.tailLength, this.tailChars));
  }

  text(): string {
    this.compactTail();
    const tail = this.tailChunks.join("");
    const cut = this.cutChars;
    return cut > 0 ? this.head + cutNote(cut) + tail : this.head + tail;
  }

  private compactTail(): void {
    const joined = this.tailChunks.join("");
    const kept = joined.length > this.tailChars ? joined.slice(joined.length - this.tailChars) : joined;
    this.tailChunks = [kept];
    this.tailLength = kept.length;
  }
}
