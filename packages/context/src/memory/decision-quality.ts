import { settingChanges } from "./setting.js";

// The quality gate for captured decisions (seed 000, issue 1B): no conversational filler, no
// questions, no fragments, no code, and the text must either name an action or carry a structural
// decision marker. Missing a decision is better than storing noise.

const FILLER = /^(you're right|you are right|ohoho|haha|hmm|well,|okay so|ok so|sure,|yeah|ok |okay,|ah |oh |great[,!]|thanks|thank you|perfect[,!]|got it|good (catch|point|question))/i;

const VERB_BASES = [
  "use", "add", "remove", "replace", "create", "implement", "switch", "move", "keep", "skip", "merge",
  "split", "export", "import", "change", "fix", "update", "deploy", "persist", "store", "read", "write",
  "inject", "filter", "track", "decide",
];
const DOUBLES_FINAL_CONSONANT = new Set(["skip", "split"]);
const IRREGULAR = ["chose", "choose", "choosing", "chosen", "going with", "go with", "kept", "wrote", "written"];

/** use -> use|uses|used|using; fix -> fix|fixes|fixed|fixing; skip -> skipped|skipping ... */
function inflections(base: string): string[] {
  const stem = base.endsWith("e") ? base.slice(0, -1) : base;
  const doubled = DOUBLES_FINAL_CONSONANT.has(base) ? base + base.at(-1) : base;
  const s = /(?:s|x|z|ch|sh)$/.test(base) ? `${base}es` : `${base}s`;
  return [base, s, base.endsWith("e") ? `${base}d` : `${doubled}ed`, `${base.endsWith("e") ? stem : doubled}ing`];
}

const ACTION_VERB = new RegExp(
  `\\b(?:${[...VERB_BASES.flatMap(inflections), ...IRREGULAR].map((v) => v.replace(" ", "\\s+")).join("|")})\\b`,
  "i",
);

export function hasActionVerb(text: string): boolean {
  return ACTION_VERB.test(text);
}

/** Index (in words) of the first action verb, or -1. Used to rank tier-4 bullets. */
export function actionVerbWordIndex(text: string): number {
  const match = ACTION_VERB.exec(text);
  if (!match) return -1;
  return text.slice(0, match.index).split(/\s+/).filter(Boolean).length;
}

// "I'll start by reading the tests" is a step, not a choice.
const PROCEDURAL = /^(?:i'll|i will|let's|let me|we'll|we will)\s+(?:start|begin|first)\b.{0,40}\b(?:reading|looking|checking|exploring|inspecting|reviewing)\b/i;

export function isFiller(text: string): boolean {
  const t = text.trim();
  return FILLER.test(t) || PROCEDURAL.test(t);
}

export function isQuestion(text: string): boolean {
  return /\?["')\]]*\s*$/.test(text.trim());
}

const CODE_START = /^(?:\$ |> |import |export |const |let |var |function |class |def |return |if \(|for \(|<\/?[a-z][\w-]*[\s>])/;

/** A line that reads as code or a shell transcript rather than prose. */
export function looksLikeCode(text: string): boolean {
  const t = text.trim();
  if (CODE_START.test(t)) return true;
  const symbols = (t.match(/[{}();=<>[\]|&$\\]/g) ?? []).length;
  const letters = (t.match(/\p{L}/gu) ?? []).length;
  return symbols >= 4 && symbols / Math.max(1, letters) > 0.15;
}

/** Ends the way a cut-off or lead-in line ends: a colon, a comma, an ellipsis, a dangling word. */
export function looksLikeFragment(text: string): boolean {
  const t = text.trim();
  if (t.split(/\s+/).length < 3 || t.length < 12) return true;
  if (/(?:[:,;(\-–—]|\.\.\.|…|\[truncated\])$/i.test(t)) return true;
  return /\b(?:and|or|the|a|an|to|of|with|for|because|but|then|so)$/i.test(t);
}

/** Seed 000's structural check: an action verb, or a bold / bullet / "keyword:" structure. */
export function hasDecisionStructure(rawLine: string): boolean {
  const t = rawLine.trim();
  if (hasActionVerb(t)) return true;
  if (t.startsWith("**") || /^[-*]\s/.test(t)) return true;
  return /^(?:decision|plan|approach|choice|strategy|fix|solution)\b[^:]{0,20}:/i.test(t);
}

/** The whole gate, applied to the raw line and to the cleaned text that would be stored. */
export function passesDecisionGate(rawLine: string, cleaned: string): boolean {
  if (isFiller(cleaned) || isQuestion(cleaned) || looksLikeCode(cleaned) || looksLikeFragment(cleaned)) return false;
  return hasDecisionStructure(rawLine) || settingChanges(cleaned).length > 0;
}

/** Entries that can never be decisions (used when merging sets that may hold old heuristic noise). */
export function isDecisionNoise(text: string): boolean {
  const t = text.trim();
  return t.length === 0 || isFiller(t) || isQuestion(t);
}
