import { settingChanges } from "./setting.js";

// The quality gate for captured decisions (docs/design/checkpoint-quality.md): no conversational filler, no
// questions, and the text must either name an action or carry a structural decision marker. hatloop
// also rejects fragments and code. Missing a decision is better than storing noise.

/** The filler pattern. */
const SEED_FILLER = /^(you're right|ohoho|haha|hmm|well,|okay so|sure,|yeah|ok |ah |oh )/i;
/** hatloop's additions: more openers that acknowledge and decide nothing. */
const MORE_FILLER = /^(you are right|ok so|okay,|great[,!]|thanks|thank you|perfect[,!]|got it|good (catch|point|question))/i;

/** The action-verb lexicon. */
const ACTION_VERBS = [
  "use",
  "add",
  "remove",
  "replace",
  "create",
  "implement",
  "switch",
  "move",
  "keep",
  "skip",
  "merge",
  "split",
  "export",
  "import",
  "change",
  "fix",
  "update",
  "deploy",
  "persist",
  "store",
  "read",
  "write",
  "inject",
  "filter",
  "track",
  "chose",
  "going with",
  "decided",
] as const;

// A verb counts in any of its forms ("used", "fixes", "kept", "go with"), not only the form listed.
const LISTED_INFLECTED = new Set<string>(["chose", "going with", "decided"]);
const IRREGULAR_FORMS: Readonly<Record<string, readonly string[]>> = {
  chose: ["choose", "chooses", "choosing", "chosen"],
  "going with": ["go with"],
  decided: ["decide", "decides", "deciding"],
  keep: ["kept"],
  write: ["wrote", "written"],
};
const DOUBLES_FINAL_CONSONANT = new Set(["skip", "split"]);

/** use -> use|uses|used|using; fix -> fix|fixes|fixed|fixing; skip -> skipped|skipping ... */
function inflections(base: string): string[] {
  const stem = base.endsWith("e") ? base.slice(0, -1) : base;
  const doubled = DOUBLES_FINAL_CONSONANT.has(base) ? base + base.at(-1) : base;
  const s = /(?:s|x|z|ch|sh)$/.test(base) ? `${base}es` : `${base}s`;
  return [base, s, base.endsWith("e") ? `${base}d` : `${doubled}ed`, `${base.endsWith("e") ? stem : doubled}ing`];
}

function formsOf(verb: string): string[] {
  return [...(LISTED_INFLECTED.has(verb) ? [verb] : inflections(verb)), ...(IRREGULAR_FORMS[verb] ?? [])];
}

const ACTION_VERB = new RegExp(
  `\\b(?:${ACTION_VERBS.flatMap(formsOf)
    .map((v) => v.replace(" ", "\\s+"))
    .join("|")})\\b`,
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
const PROCEDURAL =
  /^(?:i'll|i will|let's|let me|we'll|we will)\s+(?:start|begin|first)\b.{0,40}\b(?:reading|looking|checking|exploring|inspecting|reviewing)\b/i;

function isFiller(text: string): boolean {
  const t = text.trim();
  return SEED_FILLER.test(t) || MORE_FILLER.test(t) || PROCEDURAL.test(t);
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
function looksLikeFragment(text: string): boolean {
  const t = text.trim();
  if (t.split(/\s+/).length < 3 || t.length < 12) return true;
  if (/(?:[:,;(\-–—]|\.\.\.|…|\[truncated\])$/i.test(t)) return true;
  return /\b(?:and|or|the|a|an|to|of|with|for|because|but|then|so)$/i.test(t);
}

// A "keyword:" label: The keywords are the decision words of its tier patterns
// (decision, plan, approach, fix, solution), plus choice and strategy.
const KEYWORD_COLON = /\b(?:decision|plan|approach|choice|strategy|fix|solution)\b[^:]{0,20}:/i;

/**
 * The structural check: an action verb or a "keyword:" in the stored text, or a line that
 * starts with bold or a bullet.
 */
function hasDecisionStructure(rawLine: string, stored: string): boolean {
  const t = rawLine.trim();
  if (t.startsWith("**") || /^[-*]\s/.test(t)) return true;
  return hasActionVerb(stored) || KEYWORD_COLON.test(stored);
}

/**
 * The whole gate. Filler, question and structure are the checks on the text that is stored;
 * code and fragments (hatloop's additions: "Plan:", "I'll do the following:") are judged on the
 * whole line, so a line cut to fit is not taken for a fragment.
 */
export function passesDecisionGate(rawLine: string, stored: string, full: string = stored): boolean {
  if (isFiller(stored) || isQuestion(stored) || looksLikeCode(full) || looksLikeFragment(full)) return false;
  return hasDecisionStructure(rawLine, stored) || settingChanges(full).length > 0;
}

/** Entries that can never be decisions (used when merging sets that may hold old heuristic noise). */
export function isDecisionNoise(text: string): boolean {
  const t = text.trim();
  return t.length === 0 || isFiller(t) || isQuestion(t);
}
