import { textOf, toolResultText, withoutScratchpad, type Message } from "../messages.js";
import { extractDecisionsFromResponse, extractUserDecisions } from "../memory/decision-extract.js";
import { realUserText } from "../memory/real-user.js";
import { dedupeKeepNewest, mergeDecisions, mergeOpenItems, withoutResolved, type DecisionRecord } from "../memory/items.js";
import { extractOpenItems } from "../memory/open-items-extract.js";
import { redactSecrets } from "../memory/redact.js";
import type { Scratchpad } from "./scratchpad.js";

// Decisions, open items and learnings for the handoff, each deduplicated semantically. Decisions
// merge, in this order so that later sources win the wording: the running set, then those extracted
// from the conversation (the agent's responses and what the person decided, in order), then the
// scratchpad's Key Decisions (curated by the agent itself). The running set covers the whole
// session; the key decisions shown are those later work still depends on.

const MAX_KEY_DECISIONS = 10;
/** The recent messages whose words tell which decisions the work still depends on. */
const DEPENDENCY_WINDOW = 40;
const MAX_LEARNINGS = 30;
/** Open items and blockers are read from this many of the latest assistant messages. */
const RECENT_ASSISTANT_MESSAGES = 3;

function assistantTexts(messages: readonly Message[]): string[] {
  return messages
    .filter((m) => m.role === "assistant")
    .map((m) => withoutScratchpad(textOf(m)))
    .filter((t) => t.trim().length > 0);
}

export function collectDecisions(running: readonly DecisionRecord[], messages: readonly Message[], pad: Scratchpad): DecisionRecord[] {
  const extracted = messages
    .flatMap((m) =>
      m.role === "assistant" ? extractDecisionsFromResponse(withoutScratchpad(textOf(m))) : extractUserDecisions(realUserText(m)),
    )
    .map((what) => ({ what: redactSecrets(what), when: null }));
  const curated = pad.decisions.map((what) => ({ what: redactSecrets(what), when: null }));
  return mergeDecisions(
    running.map((d) => ({ ...d, what: redactSecrets(d.what) })),
    [...extracted, ...curated],
  );
}

/**
 * The decisions later work still depends on, most depended on first: each scored by how many of its
 * distinctive terms (names, paths, values, long words) the recent messages still use; ties go to
 * the newer. All of them when they are no more than `max`.
 */
export function keyDecisionsOf(decisions: readonly DecisionRecord[], recent: readonly Message[] = [], max = MAX_KEY_DECISIONS): string[] {
  if (decisions.length <= max) return decisions.map((d) => d.what);
  const text = recent
    .slice(-DEPENDENCY_WINDOW)
    .map((m) => (m.role === "assistant" ? textOf(m) : blocksText(m)))
    .join("\n")
    .toLowerCase();
  return decisions
    .map((d, index) => ({ what: d.what, index, score: [...termsOf(d.what)].filter((t) => text.includes(t)).length }))
    .sort((a, b) => b.score - a.score || b.index - a.index)
    .slice(0, max)
    .map((d) => d.what);
}

const COMMON_WORDS = new Set([
  "should",
  "because",
  "instead",
  "rather",
  "without",
  "before",
  "after",
  "through",
  "between",
  "another",
  "already",
  "always",
  "decided",
  "decision",
  "approach",
  "choose",
  "chosen",
  "switch",
  "replace",
  "remove",
  "change",
  "update",
  "create",
  "implement",
  "keep",
  "user",
  "the user",
]);

/** The words of a decision that name something: code-shaped tokens, paths, values, long words. */
function termsOf(text: string): Set<string> {
  const terms = new Set<string>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}_./-]{4,}/gu) ?? []) {
    const clean = word.replace(/^[./-]+|[./-]+$/g, "");
    if (clean.length < 4 || COMMON_WORDS.has(clean)) continue;
    if (/[_./\d-]/.test(clean) || clean.length >= 7) terms.add(clean);
  }
  return terms;
}

function blocksText(message: Message): string {
  return typeof message.content === "string"
    ? message.content
    : message.content.map((b) => (b.type === "text" ? b.text : b.type === "tool_result" ? toolResultText(b) : "")).join("\n");
}

export interface RecentFindings {
  openItems: string[];
  blockers: string[];
}

/** Open items and blockers named in the latest assistant messages. */
export function recentFindings(messages: readonly Message[]): RecentFindings {
  const found = assistantTexts(messages).slice(-RECENT_ASSISTANT_MESSAGES).map(extractOpenItems);
  return {
    openItems: found.flatMap((f) => f.openItems).map(redactSecrets),
    blockers: found.flatMap((f) => f.blockers).map(redactSecrets),
  };
}

/** Running items plus new findings, minus anything already completed or listed as remaining. */
export function collectOpenItems(
  running: readonly string[],
  findings: RecentFindings,
  covered: { completed: readonly string[]; remaining: readonly string[] },
): string[] {
  const merged = mergeOpenItems(running.map(redactSecrets), findings.openItems);
  return withoutResolved(merged, [...covered.completed, ...covered.remaining]);
}

export function collectLearnings(learnings: readonly string[]): string[] {
  return dedupeKeepNewest(learnings.map(redactSecrets)).slice(-MAX_LEARNINGS);
}
