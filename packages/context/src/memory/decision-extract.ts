import { capitalize } from "./text.js";
import { actionVerbWordIndex, hasActionVerb, passesDecisionGate } from "./decision-quality.js";
import { settingChanges } from "./setting.js";
import { collapseWhitespace, linesOutsideCodeFences, stripListMarker, stripMarkdown, wholeSentencesWithin } from "./text.js";

// Tiered decision extraction (seed 000, issue 1A). The old heuristic stored the first 200 characters
// of a response, so "You're right, I overcomplicated it" became a decision. Here a decision is one
// line of the response that carries a decision marker, bounded to whole sentences and passed
// through the quality gate; when nothing qualifies the answer is null. A line that changes a named
// setting ("Lowering it to REFRESH_SKEW_MS=5000: ...") ranks with tier 2: it is a choice with a value.

export const MAX_DECISION_LENGTH = 200;

const TIER1 = /^(?:decision:|plan:|approach:|going with\b|chose\b|choosing\b)/i;
const TIER2 = /^(?:i'll\b|we'll\b|let's\b|i will\b|we will\b|i'm going to\b|we're going to\b|the approach is\b|the plan is\b|the fix is\b|the solution is\b)/i;
const TIER3 = /^(?:\*\*|[-*]\s+\*\*[^*]+\*\*)/;
const TIER4 = /^(?:[-*]\s|\d+\.\s)/;
const LABEL = /^(?:decision|plan|approach)\s*:\s*/i;

interface Candidate {
  tier: 1 | 2 | 3 | 4;
  raw: string;
  order: number;
  verbIndex: number;
}

/** A line as it reads without bullets, checkbox or emphasis, with straight apostrophes. */
function plainLine(raw: string): string {
  return collapseWhitespace(stripMarkdown(stripListMarker(raw))).replace(/[‘’]/g, "'");
}

function tierOf(raw: string): Candidate["tier"] | null {
  const trimmed = raw.trim();
  const plain = plainLine(trimmed);
  if (TIER1.test(plain)) return 1;
  if (TIER2.test(plain) || settingChanges(plain).length > 0) return 2;
  if (TIER3.test(trimmed)) return 3;
  if (TIER4.test(trimmed) && hasActionVerb(plain)) return 4;
  return null;
}

/** Tier first; in tier 4 lines whose verb is within the first five words come first; then order. */
function rank(a: Candidate, b: Candidate): number {
  if (a.tier !== b.tier) return a.tier - b.tier;
  if (a.tier === 4) {
    const early = (c: Candidate) => (c.verbIndex >= 0 && c.verbIndex < 5 ? 0 : 1);
    if (early(a) !== early(b)) return early(a) - early(b);
  }
  return a.order - b.order;
}

/** The text that would be stored for a line, or null when the line cannot give a clean decision. */
function shape(raw: string): string | null {
  const plain = plainLine(raw).replace(LABEL, "");
  const bounded = wholeSentencesWithin(plain, MAX_DECISION_LENGTH);
  if (bounded === null || bounded.length === 0) return null;
  const text = capitalize(bounded);
  return passesDecisionGate(raw, text) ? text : null;
}

/**
 * Each non-empty line; for prose lines also the sentences after the first, so that
 * "Understood. Going with X" still offers "Going with X" (only tiers 1 and 2 are taken from those).
 */
function candidateLines(text: string): string[] {
  return linesOutsideCodeFences(text).flatMap((raw) => {
    if (raw.trim().length === 0) return [];
    if (/^\s*(?:[-*+]|\d+[.)]|#)/.test(raw)) return [raw];
    const later = raw.trim().split(/(?<=[.!?])\s+/).slice(1).filter((s) => (tierOf(s) ?? 3) <= 2);
    return [raw, ...later];
  });
}

/**
 * The decision a response records, or null. Lines in code fences are ignored; the best-ranked line
 * that passes the quality gate wins.
 */
export function extractDecisionFromResponse(text: string): string | null {
  const candidates: Candidate[] = [];
  let order = 0;
  for (const raw of candidateLines(text)) {
    const tier = tierOf(raw);
    if (tier !== null) candidates.push({ tier, raw, order, verbIndex: actionVerbWordIndex(plainLine(raw)) });
    order++;
  }
  for (const candidate of [...candidates].sort(rank)) {
    const decision = shape(candidate.raw);
    if (decision !== null) return decision;
  }
  return null;
}
