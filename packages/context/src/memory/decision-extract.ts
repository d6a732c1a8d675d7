import { actionVerbWordIndex, hasActionVerb, passesDecisionGate } from "./decision-quality.js";
import { settingChanges } from "./setting.js";
import {
  capitalize,
  collapseWhitespace,
  linesOutsideCodeFences,
  stripListMarker,
  stripMarkdown,
  truncateAtWord,
  wholeSentencesWithin,
} from "./text.js";

// Tiered decision extraction (docs/design/checkpoint-quality.md). The old heuristic stored the first 200 characters
// of a response, so "You're right, I overcomplicated it" became a decision. Here the decision is the
// highest-tier line of the response (first one within a tier), kept as written, label included, and
// bounded to 200 characters. It must pass the quality gate (issue 1B) or nothing is captured: no
// decision is better than noise.

export const MAX_DECISION_LENGTH = 200;

type Tier = 1 | 2 | 3 | 4;

// The tier patterns, matched against the trimmed line (indentation is not content).
const TIER1 = /^(Decision:|Plan:|Approach:|Going with|Chose|Choosing)/i;
const TIER2 = [
  /^(I'll|We'll|Let's|I will|We will|I'm going to|We're going to)/i,
  /^(The approach is|The plan is|The fix is|The solution is)/i,
];
const TIER3 = [/^\*\*/, /^[-*]\s+\*\*[^*]+\*\*/];
const TIER4 = /^([-*]\s|\d+\.\s)/;

interface Candidate {
  tier: Tier;
  raw: string;
  order: number;
}

/** Trimmed, typographic apostrophes straightened ("I’ll" is "I'll"). */
function asWritten(raw: string): string {
  return raw.trim().replace(/[‘’]/g, "'");
}

/** The line as stored: bullets, checkbox and emphasis dropped (formatting, not words; seed dedup ignores it too). */
function plainLine(raw: string): string {
  return collapseWhitespace(stripMarkdown(stripListMarker(asWritten(raw))));
}

function seedTier(raw: string): Tier | null {
  const line = asWritten(raw);
  if (TIER1.test(line)) return 1;
  if (TIER2.some((re) => re.test(line))) return 2;
  if (TIER3.some((re) => re.test(line))) return 3;
  if (TIER4.test(line) && hasActionVerb(plainLine(line))) return 4;
  return null;
}

/** Tier first; in tier 4, lines whose verb is within the first five words first; then first occurrence. */
function best(candidates: readonly Candidate[]): Candidate | undefined {
  const late = (c: Candidate) => {
    const verb = c.tier === 4 ? actionVerbWordIndex(plainLine(c.raw)) : 0;
    return verb >= 0 && verb < 5 ? 0 : 1;
  };
  return [...candidates].sort((a, b) => a.tier - b.tier || late(a) - late(b) || a.order - b.order)[0];
}

/**
 * hatloop's extensions, tried only when no line matches a tier, so they never displace the
 * tiers' choice: a line that changes a named setting ("Lowering it to REFRESH_SKEW_MS=5000: ...",
 * setting.ts), and a tier 1 or 2 marker that starts a later sentence of a prose line
 * ("Understood. Going with X" offers "Going with X").
 */
function extensionCandidates(lines: readonly string[]): Candidate[] {
  const tierOf = (s: string): Tier | null => {
    const tier = seedTier(s);
    if (tier !== null && tier <= 2) return tier;
    return settingChanges(plainLine(s)).length > 0 ? 2 : null;
  };
  return lines.flatMap((raw, order) => {
    const sentences = /^\s*(?:[-*+]|\d+[.)]|#)/.test(raw)
      ? [raw]
      : [
          raw,
          ...raw
            .trim()
            .split(/(?<=[.!?])\s+/)
            .slice(1),
        ];
    return sentences.flatMap((s) => {
      const tier = tierOf(s);
      return tier === null ? [] : [{ tier, raw: s, order }];
    });
  });
}

/** Whole sentences when at least one fits, else cut at a word within the limit, marked with "…". */
function bounded(text: string): string {
  return wholeSentencesWithin(text, MAX_DECISION_LENGTH) ?? truncateAtWord(text, MAX_DECISION_LENGTH);
}

/** The text stored for the chosen line, or null when it fails the quality gate. */
function shape(raw: string): string | null {
  const full = plainLine(raw);
  const text = capitalize(bounded(full));
  return passesDecisionGate(raw, text, full) ? text : null;
}

/** The decision a response records, or null. Lines in code fences are ignored. */
export function extractDecisionFromResponse(text: string): string | null {
  const lines = linesOutsideCodeFences(text).filter((line) => line.trim().length > 0);
  const matched = lines.flatMap((raw, order) => {
    const tier = seedTier(raw);
    return tier === null ? [] : [{ tier, raw, order }];
  });
  const chosen = best(matched) ?? best(extensionCandidates(lines));
  return chosen === undefined ? null : shape(chosen.raw);
}
