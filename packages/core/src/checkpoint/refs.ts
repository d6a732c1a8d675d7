import type { LiveEntry } from "../state/live-entry.js";

// The live context as references: runs of consecutive stored seqs plus the tool_use ids whose
// results are stubbed. Its size depends on the shape of the live context, not on the history's
// length, so a checkpoint at iteration 500 costs what one at iteration 5 does.

export interface ContextRef {
  version: 1;
  ranges: Array<[number, number]>;
  stubbed: string[];
}

export function toContextRef(live: readonly LiveEntry[], stubbed: ReadonlySet<string>): ContextRef {
  const ranges: Array<[number, number]> = [];
  for (const entry of live) {
    if (entry.seq === null) throw new Error("cannot checkpoint a live context with unstored messages");
    const last = ranges.at(-1);
    if (last && entry.seq === last[1] + 1) last[1] = entry.seq;
    else ranges.push([entry.seq, entry.seq]);
  }
  return { version: 1, ranges, stubbed: [...stubbed].sort() };
}

export function refSeqs(ref: ContextRef): number[] {
  return ref.ranges.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => from + i));
}

export function isContextRef(value: unknown): value is ContextRef {
  const v = value as Partial<ContextRef> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    v.version === 1 &&
    Array.isArray(v.ranges) &&
    (v.ranges as unknown[]).every(
      (r) => Array.isArray(r) && r.length === 2 && Number.isInteger(r[0]) && Number.isInteger(r[1]) && r[0] <= r[1],
    ) &&
    Array.isArray(v.stubbed)
  );
}
