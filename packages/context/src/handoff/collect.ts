import { textOf, withoutScratchpad, type Message } from "../messages.js";
import { extractDecisionFromResponse } from "../memory/decision-extract.js";
import { dedupeKeepNewest, mergeDecisions, mergeOpenItems, withoutResolved, type DecisionRecord } from "../memory/items.js";
import { extractOpenItems } from "../memory/open-items-extract.js";
import { redactSecrets } from "../memory/redact.js";
import type { Scratchpad } from "./scratchpad.js";

// Decisions, open items and learnings for the handoff, each deduplicated semantically. Decisions
// merge, in this order so that later sources win the wording: the running set, then those extracted
// from assistant responses, then the scratchpad's Key Decisions (curated by the agent itself).

const MAX_KEY_DECISIONS = 10;
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
  const extracted = assistantTexts(messages)
    .map(extractDecisionFromResponse)
    .filter((d): d is string => d !== null)
    .map((what) => ({ what: redactSecrets(what), when: null }));
  const curated = pad.decisions.map((what) => ({ what: redactSecrets(what), when: null }));
  return mergeDecisions(
    running.map((d) => ({ ...d, what: redactSecrets(d.what) })),
    [...extracted, ...curated],
  );
}

export function keyDecisionsOf(decisions: readonly DecisionRecord[]): string[] {
  return decisions.slice(-MAX_KEY_DECISIONS).map((d) => d.what);
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
