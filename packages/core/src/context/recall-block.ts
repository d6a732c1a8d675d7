import { extractKeywords, MARKERS, toolResults, type Message } from "@hatloop/context";
import type { MemoryRecord, SearchHit, Store } from "../store/port.js";
import { messageText } from "./message-text.js";

// The automatic recalled-context block (docs/design/memory-and-recall.md): after a compaction drops older turns, stored
// messages relevant to what the user asked are brought back, under a hard cap of
// min(cap, 10% of the window) tokens — 30% for knowledge facts, 70% for detail. It is built once per
// compaction (so the cached prefix survives), and recall never returns injected text, so recalled
// content is never recalled again.

const CHARS_PER_TOKEN = 4;
const EXCERPT_CHARS = 600;

/**
 * Seqs of live entries the model sees in full. An entry with a stubbed tool result is not among
 * them: the stub only names what was removed, so recall must still be able to return it.
 */
export function seqsShownInFull(live: readonly { seq: number | null; message: Message }[], stubbed: ReadonlySet<string>): number[] {
  return live.flatMap((e) => (e.seq === null || toolResults(e.message).some((r) => stubbed.has(r.tool_use_id)) ? [] : [e.seq]));
}

export function recallCapTokens(capTokens: number, contextWindow: number): number {
  return Math.max(0, Math.min(capTokens, Math.floor(contextWindow * 0.1)));
}

/** Keywords of what the user asked (the task, recent steering) and the open checklist items, as an OR query. */
export function recallQuery(task: string, instructions: readonly string[], openItems: string[]): string | null {
  const words = [...extractKeywords([task, ...instructions.slice(-2), ...openItems].join("\n"))].slice(0, 24);
  return words.length >= 1 ? words.join(" OR ") : null;
}

export async function buildRecalledBlock(
  store: Store,
  sessionId: string,
  options: { query: string; excludeSeqs: number[]; facts: MemoryRecord[]; capTokens: number },
): Promise<{ text: string; hits: number; tokens: number } | null> {
  const budget = options.capTokens * CHARS_PER_TOKEN;
  if (budget < 200) return null;
  const knowledge = take(
    options.facts.map((f) => `- [${f.type}] ${f.content}`),
    Math.floor(budget * 0.3),
  );
  const hits = await store.messages.search(sessionId, options.query, {
    limit: 12,
    excludeSeqs: options.excludeSeqs,
    kinds: ["conversation"],
  });
  const detail = take(
    hits.map((h) => `[#${h.seq} · iteration ${h.iteration} · ${h.role}] ${excerpt(h, options.query)}`),
    budget - knowledgeChars(knowledge),
  );
  if (knowledge.length === 0 && detail.length === 0) return null;
  const text = [
    `${MARKERS.recalled} source="hatloop" query="${options.query.replace(/"/g, "'")}">`,
    knowledge.length ? `<knowledge>\n${knowledge.join("\n")}\n</knowledge>` : "",
    detail.length ? `<detail>\n${detail.join("\n\n")}\n</detail>` : "",
    "Older messages are stored in full; fetch more with the recall tool.",
    "</recalled-context>",
  ]
    .filter(Boolean)
    .join("\n");
  return { text, hits: detail.length, tokens: Math.ceil(text.length / CHARS_PER_TOKEN) };
}

/** Greedy in rank order: whole entries only, never past the budget. */
function take(entries: string[], budget: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (const entry of entries) {
    if (used + entry.length + 1 > budget) continue;
    out.push(entry);
    used += entry.length + 1;
  }
  return out;
}

function knowledgeChars(entries: string[]): number {
  return entries.reduce((n, e) => n + e.length + 1, 0);
}

/** A window of the message around the first query word it contains. */
function excerpt(hit: SearchHit, query: string): string {
  const text = messageText(hit.message).replace(/\s+/g, " ").trim();
  if (text.length <= EXCERPT_CHARS) return text;
  const words = query.toLowerCase().split(" OR ");
  const at = Math.max(0, Math.min(...words.map((w) => text.toLowerCase().indexOf(w)).filter((i) => i >= 0), text.length));
  const start = Math.max(0, Math.min(at - EXCERPT_CHARS / 3, text.length - EXCERPT_CHARS));
  return `${start > 0 ? "…" : ""}${text.slice(start, start + EXCERPT_CHARS)}${start + EXCERPT_CHARS < text.length ? "…" : ""}`;
}
