import { settingChanges } from "./setting.js";

// The quality gate for captured decisions (docs/design/checkpoint-quality.md): no conversational filler, no
// questions, and the text must either name an action or carry a structural decision marker. hatloop
// also rejects fragments and code. Missing a decision is better than storing noise.

/** The filler pattern. */
const SEED_FILLER = /^(you're right|ohoho|haha|hmm|well,|okay so|sure,|yeah|ok |ah |oh )/i;
/** "Good — the job is running": a reaction, then a report. */
const REACTION = /^(?:good|great|perfect|excellent|nice|done|ok|okay|right)\s*[—–-]\s/i;
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

/** The seed's explicit decision markers: a line that says it is a decision needs no other sign. */
const TIER1_MARKER = /^(Decision:|Plan:|Approach:|Going with|Chose|Choosing)/i;

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
  return SEED_FILLER.test(t) || MORE_FILLER.test(t) || PROCEDURAL.test(t) || REACTION.test(t) || OFFER.test(t);
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
  return hasActionVerb(stored) || KEYWORD_COLON.test(stored) || OUTRIGHT_CHOICE.test(stored);
}

// A status, progress or result line reports where the work is, not a choice: a check mark, a
// counter ("347 / 5000", "7%"), a step number, a measurement, a label such as "Missing:", or a
// report of what was just done ("Added X", "Implementation: fixed Y"). Progress is superseded by the
// next report, so it is never kept as a decision (issue 24: "Step 347 / 5000" next to "Step 2376").
const STATUS_GLYPH = /[✅❌✓✔✗✘⚠🎉🚀🔥💥👉⏳🟢🔴🟡]/u;
const COUNTER = /\b\d+\s*\/\s*\d+\b|\b\d+(?:\.\d+)?\s?%|^(?:step|phase|stage|iteration|round|attempt)\s+\d+/i;
const MEASUREMENT =
  /\b\d+(?:[.,]\d+)?\s?(?:μs|µs|us|ms|ns|s|sec|seconds|minutes|mb|gb|kb|tokens|x|×)\b|\d\s?×|\b(?:faster|slower|speedup)\b/i;
const STATUS_LABEL =
  /^\(?(?:status|result|results|summary|note|missing|done|todo|progress|current state|outcome|output|error|warning|issue|problem|finding|findings|key findings|insight|architecture)\)?\s*[:—–-]/i;
/** "Build Fix: Resolved ...", "Reverted — ...": a line led by a past-tense verb reports what was done. */
const PAST_LEAD = /^(?:[^:—]{1,30}[:—]\s*)?(?!(?:decided|used|preferred|chose)\b)[A-Za-z]+ed\b/;
/** "src/a.ts: now deserializes ...": what was changed in a file, a report. */
const FILE_REPORT = /^[\w./@-]+\.[a-z]{1,6}\s*:\s/i;
/** "If you don't want it, I'll revert it": an offer waiting on the person, not a choice. */
const OFFER = /^if (?:you|that|this)\b/i;
const REPORT =
  /^(?:[\w /-]{1,30}:\s*)?(?:done|completed|finished|fixed|added|created|updated|implemented|installed|built|compiled|ran|verified|confirmed|found|wrote|moved|removed|renamed|deleted|merged|successfully|now (?:the )?\w+ (?:is|are|works|passes))\b/i;
/** What turns a report, a measurement or an intention into a choice: an alternative, a reason, a rule. */
export const CHOICE_MARKER =
  /\b(?:instead|rather than|because|so that|to avoid|in order to|prefer|chose|choose|decided|decide to|going with|go with|switch(?:ed)? to|no longer|never|only|don't|do not|won't|will not|without|not to|n't to|over the|by default|must|shouldn't|should not)\b/i;
/** Words that state a choice outright, whatever the verb: "we won't link cuFFT", "going with X". */
export const OUTRIGHT_CHOICE =
  /\b(?:instead of|rather than|won't|will not|decided|decide to|going with|go with|chose|choose to|switch(?:ed)? to|no longer|don't use|do not use|not to use|n't to use|never use|we prefer|prefer to)\b/i;
// "I'll create them in parallel" is narration: the agent saying what it does next. An intention
// is a decision when its verb is itself a choice (switch, remove, keep, ...: CHOICE_VERBS) or it
// states the choice outright ("instead of", "won't", "going with").
const INTENT =
  /^(?:i'll|i will|i'm going to|i am going to|let me|let's|we'll|we will|we're going to|now,? i'll|now let me|next,? i'll|first,? i'll)\s+(\w+)/i;

/** A status, progress or result report. */
function isStatusLine(text: string): boolean {
  const t = text.trim();
  if (STATUS_GLYPH.test(t) || COUNTER.test(t) || STATUS_LABEL.test(t)) return true;
  if (PAST_LEAD.test(t) && !OUTRIGHT_CHOICE.test(t)) return true;
  return (MEASUREMENT.test(t) || REPORT.test(t) || FILE_REPORT.test(t)) && !CHOICE_MARKER.test(t);
}

/** "..., let me launch it now": the agent narrating a step anywhere in the line. */
const NARRATION_ANYWHERE = /\b(?:let me|i'll|i will|i'm going to|i am going to|i'm)\s+(\w+)/gi;

/** The agent narrating its next step: an intention whose verb is a step of the work, not a choice. */
function isNarration(text: string): boolean {
  const t = text.trim();
  const verb = INTENT.exec(t)?.[1]?.toLowerCase();
  if (verb !== undefined && !isChoiceVerb(verb) && !OUTRIGHT_CHOICE.test(t)) return true;
  // "Let me ..." is always a step; later in the line so is any intention with a step's verb
  // ("rather than wait, let me run it", "First I'm checking ...").
  if (/\blet me\b/i.test(t)) return true;
  for (const m of t.matchAll(NARRATION_ANYWHERE)) if (m.index > 0 && !isChoiceVerb(m[1]!.toLowerCase())) return true;
  return false;
}

/** Verbs that are themselves a choice of how the work is done (not a step of doing it). */
const CHOICE_VERBS = new Set(
  "use switch replace keep drop remove move split merge rename adopt disable enable skip store cache pin limit restrict rewrite migrate deprecate extract inline defer postpone reject revert standardise standardize require forbid allow".split(
    " ",
  ),
);
/** What a line says it does: the first word after a label ("Cache: ...") and an intention ("I'll ..."). */
const LEAD = /^(?:[^:]{1,30}:\s*)?(?:(?:i'll|i will|we'll|we will|let's|i'm going to|we're going to|we should|i'd)\s+)?(\w+)/i;

/** A decision stated as one: the seed's "The fix is ...", or the person's own words. */
const STATED = /^(?:the user:|the (?:approach|plan|fix|solution) is\b)/i;

/** Whether the text names a choice: an alternative, a reason, a rule, a decision label, a verb of choice. */
function namesChoice(text: string): boolean {
  if (CHOICE_MARKER.test(text) || OUTRIGHT_CHOICE.test(text) || KEYWORD_COLON.test(text) || STATED.test(text)) return true;
  return isChoiceVerb(LEAD.exec(text.trim())?.[1]?.toLowerCase() ?? "");
}

function isChoiceVerb(word: string): boolean {
  const stem = word.replace(/(?:ing|ed|s)$/, "");
  return CHOICE_VERBS.has(word) || CHOICE_VERBS.has(stem) || CHOICE_VERBS.has(`${stem}e`) || CHOICE_VERBS.has(stem.replace(/(.)\1$/, "$1"));
}

/**
 * The whole gate. Filler, question and structure are the checks on the text that is stored;
 * code and fragments (hatloop's additions: "Plan:", "I'll do the following:") are judged on the
 * whole line, so a line cut to fit is not taken for a fragment.
 */
export function passesDecisionGate(rawLine: string, stored: string, full: string = stored): boolean {
  if (isFiller(stored) || isQuestion(stored) || looksLikeCode(full) || looksLikeFragment(full)) return false;
  // A line that sets a named value is a decision even when it reads like a report ("Lowering it to X=5000: with 30 s ...").
  const setting = settingChanges(full).length > 0;
  if ((isStatusLine(stored) || isNarration(stored)) && !setting) return false;
  // A decision names a choice; an action alone ("add the CuPy benchmark") is a step of the work.
  if (!setting && !namesChoice(stored) && !TIER1_MARKER.test(stored)) return false;
  return hasDecisionStructure(rawLine, stored) || settingChanges(full).length > 0;
}

/** Entries that can never be decisions (used when merging sets that may hold old heuristic noise). */
export function isDecisionNoise(text: string): boolean {
  const t = text.trim();
  if (t.length === 0 || isFiller(t) || isQuestion(t) || /(?:…|\.\.\.)$/.test(t)) return true;
  return (isStatusLine(t) || isNarration(t)) && settingChanges(t).length === 0;
}
