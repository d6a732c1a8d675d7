import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";

// Is a "key decision" line really a decision? Seed 000's rules, written for the bench and kept
// apart from the product's own filter (packages/context/src/memory/decision-quality.ts) so that the
// product cannot pass by grading itself: a question; narration (what the agent is about to do next,
// with no choice in it); a status or progress line; conversational filler; text cut off.

export type NoiseKind = "question" | "narration" | "progress" | "filler" | "truncated";

const FILLER =
  /^(you're right|you are right|ohoho|haha|hmm|well,|okay|ok[ ,.!]|sure[,.!]|yeah|yes[,.!]|no[,.!]|ah[ ,.!]|oh[ ,.!]|great[,.!]|perfect[,.!]|excellent[,.!]|good[,.!]|thanks)/i;
const INTENT =
  /^(i'll|i will|i'm going to|i am going to|let me|let's|now i|now let me|now,? let's|next,? i|first,? i|i need to|i should|i can|we'll|we will|we need to)\b/i;
/** Words that make an intent a choice: an alternative, a reason, a rule, a setting. */
const CHOICE =
  /\b(instead|rather than|because|since|so that|to avoid|prefer|chose|choose|decid|go with|going with|switch(ed)? to|keep|never|always|only|don't|do not|without|not\b|over\b|must|should not|approach|strategy|plan is|by default)/i;
const PROGRESS =
  /\b\d+\s*\/\s*\d+\b|\b\d+(\.\d+)?\s?%|^(step|iteration|phase|stage)\s+\d+|[✅✓✔❌⚠]|\b(all|every)\b.{0,40}\b(pass|passed|passing|green)\b|\b(now|is|are) (done|complete|completed|working|fixed|passing)\b|^(done|completed|finished|fixed|created|updated|added|wrote|ran|running|reading|checking)\b/i;

export function noiseKind(line: string): NoiseKind | null {
  const text = line
    .replace(/^\s*(?:[-*]|\d+\.)\s+/, "")
    .replace(/\*\*/g, "")
    .trim();
  if (!text) return "truncated";
  if (text.endsWith("?")) return "question";
  if (/(\.\.\.|…)$/.test(text) || unbalanced(text)) return "truncated";
  if (FILLER.test(text)) return "filler";
  if (PROGRESS.test(text)) return "progress";
  if (INTENT.test(text) && !CHOICE.test(text)) return "narration";
  return null;
}

/** An opening bracket, backtick or quote never closed: the text was cut. */
function unbalanced(text: string): boolean {
  const count = (c: string) => text.split(c).length - 1;
  return count("(") > count(")") || count("[") > count("]") || count("`") % 2 === 1;
}

export interface NoiseScore {
  lines: number;
  noise: number;
  byKind: Partial<Record<NoiseKind, number>>;
  /** The noisy lines, for looking into a run. */
  examples: string[];
}

export function scoreNoise(lines: readonly string[]): NoiseScore {
  const score: NoiseScore = { lines: lines.length, noise: 0, byKind: {}, examples: [] };
  for (const line of lines) {
    const kind = noiseKind(line);
    if (!kind) continue;
    score.noise++;
    score.byKind[kind] = (score.byKind[kind] ?? 0) + 1;
    if (score.examples.length < 8) score.examples.push(`${kind}: ${line.slice(0, 160)}`);
  }
  return score;
}

/** A line's key in bench/corpus/decision-labels.json: sha256 of the line with its whitespace collapsed, 16 hex digits. */
function labelKey(line: string): string {
  return createHash("sha256").update(line.replace(/\s+/g, " ").trim()).digest("hex").slice(0, 16);
}

export interface HandLabelled {
  /** Lines found in the hand labels. */
  labelled: number;
  noise: number;
  /** Lines the labels do not cover (labelled before the product changed what it lists). */
  unlabelled: number;
}

/** The noise share by the hand labels, over the lines they cover. */
export function scoreByHand(lines: readonly string[], labels: ReadonlyMap<string, "decision" | "noise">): HandLabelled {
  const score: HandLabelled = { labelled: 0, noise: 0, unlabelled: 0 };
  for (const line of lines) {
    const label = labels.get(labelKey(line));
    if (label === undefined) score.unlabelled++;
    else {
      score.labelled++;
      if (label === "noise") score.noise++;
    }
  }
  return score;
}

export function readDecisionLabels(file: string): Map<string, "decision" | "noise"> {
  if (!existsSync(file)) return new Map();
  const doc = JSON.parse(readFileSync(file, "utf8")) as { labels: Array<{ hash: string; label: "decision" | "noise" }> };
  return new Map(doc.labels.map((l) => [l.hash, l.label]));
}
