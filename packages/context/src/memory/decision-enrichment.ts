import { textOf, type Message } from "../messages.js";
import { isDecisionNoise, looksLikeCode } from "./decision-quality.js";
import { dedupeKeepNewest } from "./items.js";
import { isRealUserMessage, realUserText } from "./real-user.js";
import { redactSecrets } from "./redact.js";
import { truncateAtWord } from "./text.js";

// Optional model refinement of the decisions list (docs/design/checkpoint-quality.md): the prompt says what a
// decision is, with good and bad examples, and asks to remove non-decisions; the parser rejects any
// malformed answer so the caller keeps the heuristic list. Merge the result with mergeDecisions
// (incoming = the refined list), which also preserves heuristic decisions the model did not cover.

const RECENT_MESSAGES = 20;
const RECENT_MESSAGES_WHEN_LONG = 15;
/** About 1,500 tokens: above this the recent slice shrinks from 20 to 15 messages. */
const LONG_PROMPT_CHARS = 6_000;
const MESSAGE_CHARS = 600;

const INSTRUCTIONS = `Refine these existing decisions:
- REMOVE entries that are not actual decisions (conversational text, questions, narrative)
- Deduplicate semantically similar entries (keep the cleaner version)
- Clarify wording to be concise, action-oriented statements
- Add any decisions from recent context that are missing
- Keep decisions you cannot verify as resolved, but DO remove entries that are clearly not decisions (e.g. starting with "You're right" or "Ohoho")

An entry is a DECISION if it records a choice made, an approach selected, a trade-off accepted or a direction confirmed. Conversational acknowledgments, questions and narrative descriptions are NOT decisions.
GOOD decisions: "Use atomicWriteFile for checkpoint re-write to bypass dedup", "Merge strategy: LLM decisions + preserved heuristics via set-diff"
BAD (not decisions): "You're right, I overcomplicated it", "- I need to send him a plan", "Ohoho. Claude Code Remote Control"

Answer with a JSON array of strings only.`;

function renderRecent(messages: readonly Message[]): string[] {
  return messages.flatMap((m) => {
    const text = m.role === "assistant" ? textOf(m) : isRealUserMessage(m) ? realUserText(m) : "";
    return text.trim() ? [`[${m.role}]: ${redactSecrets(truncateAtWord(text, MESSAGE_CHARS))}`] : [];
  });
}

export function buildDecisionEnrichmentPrompt(decisions: readonly string[], messages: readonly Message[]): string {
  const build = (count: number) =>
    [
      INSTRUCTIONS,
      "",
      "Existing decisions:",
      ...(decisions.length ? decisions.map((d) => `- ${redactSecrets(d)}`) : ["(none)"]),
      "",
      "Recent context:",
      ...renderRecent(messages.slice(-count)),
    ].join("\n");
  const full = build(RECENT_MESSAGES);
  return full.length > LONG_PROMPT_CHARS ? build(RECENT_MESSAGES_WHEN_LONG) : full;
}

export type DecisionEnrichmentResult = { ok: true; decisions: string[] } | { ok: false; error: string };

/** The refined decisions (noise and code dropped, deduplicated), or an error to fall back on. */
export function parseDecisionEnrichment(reply: string): DecisionEnrichmentResult {
  const body = /```(?:json)?\s*([\s\S]*?)```/i.exec(reply)?.[1] ?? reply;
  const start = body.indexOf("[");
  const end = body.lastIndexOf("]");
  if (start === -1 || end < start) return { ok: false, error: "no JSON array in the reply" };
  let value: unknown;
  try {
    value = JSON.parse(body.slice(start, end + 1));
  } catch (error) {
    return { ok: false, error: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === "string")) {
    return { ok: false, error: "expected a JSON array of strings" };
  }
  const kept = value.map((v) => redactSecrets(v.trim())).filter((v) => !isDecisionNoise(v) && !looksLikeCode(v));
  return { ok: true, decisions: dedupeKeepNewest(kept) };
}
