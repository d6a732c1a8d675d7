import { actionVerbWordIndex, CHOICE_MARKER, hasActionVerb, isQuestion, OUTRIGHT_CHOICE, passesDecisionGate } from "./decision-quality.js";
import { settingChanges } from "./setting.js";
import { capitalize, collapseWhitespace, linesOutsideCodeFences, stripListMarker, stripMarkdown, wholeSentencesWithin } from "./text.js";

// Tiered decision extraction (docs/design/checkpoint-quality.md). The old heuristic stored the first 200 characters
// of a response, so "You're right, I overcomplicated it" became a decision. Here the decision is the
// highest-tier line of the response (first one within a tier), kept as written, label included, and
// bounded to 200 characters. It must pass the quality gate (issue 1B) or nothing is captured: no
// decision is better than noise.

export const MAX_DECISION_LENGTH = 300;
/** A response may record several choices; more than this many is a list of steps, not of choices. */
const MAX_PER_RESPONSE = 3;

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

/**
 * Whole sentences within the limit; a line whose first sentence alone is longer is not stored at
 * all (a decision cut mid-number is worse than none). A line without sentence ends is cut at a
 * word only when it is a label ("Approach: ..."), whose head carries the decision.
 */
function bounded(text: string): string | null {
  return wholeSentencesWithin(text, MAX_DECISION_LENGTH) ?? (text.length <= MAX_DECISION_LENGTH ? text : null);
}

/** The text stored for the chosen line, or null when it fails the quality gate. */
function shape(raw: string): string | null {
  const full = plainLine(raw);
  const kept = bounded(full);
  if (kept === null) return null;
  const text = capitalize(kept);
  return passesDecisionGate(raw, text, full) ? text : null;
}

/** Sentences that state a choice outright ("... instead of ...", "we won't ..."), wherever they are. */
function choiceSentences(lines: readonly string[]): Candidate[] {
  return lines.flatMap((raw, order) =>
    raw
      .trim()
      .split(/(?<=[.!?])\s+/)
      .filter((sentence) => OUTRIGHT_CHOICE.test(sentence) || (CHOICE_MARKER.test(sentence) && hasActionVerb(sentence)))
      .map((sentence) => ({ tier: 2, raw: sentence, order })),
  );
}

/**
 * The decisions a response records (at most three), best first: the tier lines, then sentences
 * that state a choice outright; each must pass the quality gate. Lines in code fences are ignored.
 */
export function extractDecisionsFromResponse(text: string): string[] {
  const lines = linesOutsideCodeFences(text).filter((line) => line.trim().length > 0);
  const matched = lines.flatMap((raw, order) => {
    const tier = seedTier(raw);
    return tier === null ? [] : [{ tier, raw, order }];
  });
  const candidates = [...sorted(matched), ...sorted(extensionCandidates(lines)), ...choiceSentences(lines)];
  const out: string[] = [];
  for (const c of candidates) {
    const decision = shape(c.raw);
    if (decision !== null && !out.includes(decision)) out.push(decision);
    if (out.length === MAX_PER_RESPONSE) break;
  }
  return out;
}

/** The best decision a response records, or null. */
export function extractDecisionFromResponse(text: string): string | null {
  return extractDecisionsFromResponse(text)[0] ?? null;
}

/**
 * What the person decided: a sentence of theirs that states a choice or a rule ("we aren't to use
 * cufft. Instead we roll it ourselves", "running tests is safe without my confirmation"), marked as
 * theirs. Questions are not decisions.
 */
export function extractUserDecisions(text: string): string[] {
  return linesOutsideCodeFences(text)
    .flatMap((line) => line.trim().split(/(?<=[.!?])\s+/))
    .map((s) => collapseWhitespace(stripMarkdown(stripListMarker(s))))
    .filter((s) => s.length >= 12 && s.length <= MAX_DECISION_LENGTH && !isQuestion(s) && (CHOICE_MARKER.test(s) || USER_RULE.test(s)))
    .slice(0, MAX_PER_RESPONSE)
    .map((s) => `The user: ${s}`);
}

/** Rules a person gives: "don't X", "always Y", "use Z", "keep ...", "no X". */
const USER_RULE = /^(?:please\s+)?(?:don't|do not|never|always|use|keep|avoid|stop|no\b|make sure|remember)\b/i;

function sorted(candidates: readonly Candidate[]): Candidate[] {
  const rest = [...candidates];
  const out: Candidate[] = [];
  for (let next = best(rest); next !== undefined; next = best(rest)) {
    out.push(next);
    rest.splice(rest.indexOf(next), 1);
  }
  return out;
}
