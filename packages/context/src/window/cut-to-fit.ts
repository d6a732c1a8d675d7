import { toolResultText, type ContentBlock, type Message } from "../messages.js";
import type { KeptEntry } from "./entry.js";

// The last resort when compaction cannot bring a request under the model's limit: one item too big
// for any context, typically a tool result in the newest turn (which pruning keeps whole). The
// largest tool results are cut, head and tail kept, until the estimate fits. The original stays
// stored and searchable; the cut copy says so. A request that still does not fit is the caller's
// to report: nothing here loops.

/** What a cut result keeps at the least, so the model still sees what the tool said. */
const MIN_KEEP_CHARS = 2_000;

const CUT_MARKER = "[hatloop cut:";

export interface CutResult<T> {
  /** Every entry, in order; one whose results were cut is `rewritten`. */
  kept: KeptEntry<T>[];
  tokensAfter: number;
}

export function cutToFit<T extends { message: Message }>(
  entries: readonly T[],
  maxTokens: number,
  estimate: (m: readonly Message[]) => number,
): CutResult<T> {
  const out = entries.map((e) => e.message);
  // Each cut halves what a result keeps, always rendered from the original text.
  const cuts = new Map<string, { message: number; block: number; original: string; keep: number }>();
  let tokens = estimate(out);
  while (tokens > maxTokens) {
    const largest = largestResult(out, cuts);
    if (!largest || largest.size <= MIN_KEEP_CHARS) break;
    const key = `${largest.message}:${largest.block}`;
    const cut = cuts.get(key) ?? { message: largest.message, block: largest.block, original: largest.text, keep: largest.size };
    cut.keep = Math.max(MIN_KEEP_CHARS, Math.floor(cut.keep / 2));
    cuts.set(key, cut);
    out[cut.message] = withCutResult(out[cut.message]!, cut.block, cut.original, cut.keep);
    tokens = estimate(out);
  }
  const changed = new Set([...cuts.values()].map((c) => c.message));
  const kept = entries.map((entry, i): KeptEntry<T> =>
    changed.has(i) ? { entry, message: out[i]!, rewritten: true } : { entry, message: entry.message, rewritten: false },
  );
  return { kept, tokensAfter: tokens };
}

interface Candidate {
  message: number;
  block: number;
  text: string;
  /** What it weighs now: its text (or what a cut keeps of it) plus its images. */
  size: number;
}

function largestResult(messages: readonly Message[], cuts: ReadonlyMap<string, { keep: number }>): Candidate | null {
  let best: Candidate | null = null;
  messages.forEach((m, i) => {
    if (typeof m.content === "string") return;
    m.content.forEach((b, j) => {
      if (b.type !== "tool_result") return;
      const text = toolResultText(b);
      const size = cuts.get(`${i}:${j}`)?.keep ?? text.length + imageWeight(b);
      if (!best || size > best.size) best = { message: i, block: j, text, size };
    });
  });
  return best;
}

/** Images count as much as the largest text we would keep, so a result of images alone can be cut too. */
function imageWeight(block: ContentBlock): number {
  if (block.type !== "tool_result" || typeof block.content === "string") return 0;
  return block.content.filter((c) => c.type === "image").length * MIN_KEEP_CHARS * 2;
}

function withCutResult(message: Message, index: number, text: string, keep: number): Message {
  const blocks = [...(message.content as ContentBlock[])];
  const block = blocks[index];
  if (block?.type !== "tool_result") return message;
  const head = text.slice(0, Math.floor(keep * 0.6));
  const tail = text.slice(Math.max(head.length, text.length - (keep - head.length)));
  const removed = text.length - head.length - tail.length;
  const note = `\n${CUT_MARKER} ${removed} of ${text.length} characters cut to fit the model's context window; the whole result is stored: the recall tool finds it]\n`;
  blocks[index] = { ...block, content: `${head}${note}${tail}` };
  return { role: message.role, content: blocks };
}
