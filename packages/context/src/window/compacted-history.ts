import { MARKERS } from "../markers.js";

// The block that records a compaction: appended under the scratchpad's "Compacted History" and
// injected into the live context. It starts with MARKERS.summary so pruning recognises it as an
// artifact (never kept twice) and it is never mistaken for something the user said.

export interface CompactedHistoryMeta {
  /** Which summary this is: the structured LLM one or the mechanical fallback. */
  source: "llm" | "mechanical";
  /** How many messages it replaces. */
  messageCount: number;
  /** Iterations covered, inclusive. */
  iterations?: { from: number; to: number };
  /** Stored message sequence numbers covered, inclusive (what recall can fetch). */
  seqs?: { from: number; to: number };
  /** Bound of the summary body in characters. Default 12,000. */
  maxChars?: number;
}

export function renderCompactedHistory(summary: string, meta: CompactedHistoryMeta): string {
  const about = [
    meta.iterations ? `iterations ${range(meta.iterations)}` : null,
    `${meta.messageCount} message${meta.messageCount === 1 ? "" : "s"}`,
    meta.seqs ? `seq ${range(meta.seqs)}` : null,
    meta.source === "llm" ? "structured summary" : "mechanical summary",
  ].filter((p): p is string => p !== null);
  const max = meta.maxChars ?? 12_000;
  const body = summary.trim();
  const bounded = body.length > max ? `${body.slice(0, max)}\n... [summary truncated]` : body;
  const recall = meta.seqs ? `\n\nThe full messages are stored; fetch details with the recall tool.` : "";
  return `${MARKERS.summary} (${about.join(", ")})\n\n${bounded}${recall}`;
}

function range(r: { from: number; to: number }): string {
  return r.from === r.to ? `${r.from}` : `${r.from}–${r.to}`;
}
