import { extractKeywords } from "./dedup.js";
import type { FactType } from "./facts-types.js";
import { settingChanges } from "./setting.js";
import { collapseWhitespace, stripMarkdown } from "./text.js";

// Reading one sentence as a keyed statement: "X is Y", "use X for Y", "never/always ...",
// "set X to Y", "NAME=value", a change of one named setting ("Lowering it to NAME=value: ..."). The
// key names the subject, the value is what is said about it, so "The API port is 3000" and
// "API_PORT=4000" share the key "api-port" and contradict each other.

export interface Statement {
  key: string;
  value: string;
  type: FactType;
}

const SPECULATIVE = /\b(?:maybe|might|probably|perhaps|possibly|i think|i guess|not sure|could be|seems?)\b/i;
const NOT_A_SUBJECT = new Set([
  "this",
  "that",
  "it",
  "there",
  "here",
  "which",
  "what",
  "who",
  "everything",
  "something",
  "nothing",
  "all",
  "each",
  "one",
  "he",
  "she",
  "they",
  "we",
  "i",
  "you",
  "now",
  "so",
  "but",
  "and",
  "these",
  "those",
  "its",
  "my",
  "our",
  "your",
  "their",
  "why",
  "how",
  "when",
  "where",
  "result",
  "answer",
  "problem",
  "issue",
]);
const TECH_NOUN =
  /\b(?:port|url|uri|endpoint|host|path|dir|directory|folder|file|command|script|version|runner|framework|database|db|branch|entry point|config|configuration|timeout|limit|default|table|schema|package|module|library|language|tests?|build|linter|formatter|server|service|api|env|variable|region|bucket|queue|model|node|target|runtime|engine|driver|manager|tool)\b/i;
const CONFIG_NOUN = /\b(?:port|url|uri|endpoint|host|timeout|limit|default|env|variable|region|bucket|version|path|dir|directory)\b/i;

export function slug(text: string, max = 60): string {
  return stripMarkdown(text)
    .toLowerCase()
    .replace(/^(?:the|a|an)\s+/, "")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, max)
    .replace(/-+$/, "");
}

/** A value as compared: lowercased, markdown and quotes stripped, end punctuation off. */
export function normalizeValue(text: string): string {
  return collapseWhitespace(stripMarkdown(text).replace(/["'“”‘’]/g, ""))
    .toLowerCase()
    .replace(/[\s.;:,!]+$/, "");
}

function looksTechnical(subject: string, original: string): boolean {
  return /`/.test(original) || /[._/:\d]|[a-z][A-Z]/.test(subject) || TECH_NOUN.test(subject);
}

/**
 * A subject that is a clause, not a thing: "Checking where parseRow is called from", "Let me look at
 * how X is wired" — narration of what the agent does, which would otherwise pass for a fact.
 */
const CLAUSE_SUBJECT = /\b(?:where|how|what|when|why|which|who|whether|if|let|me)\b/i;

function isStatement(plain: string, original: string): Statement | null {
  const match = /^(?:the\s+)?(.{2,60}?)\s+(?:is|are)\s+(?:set to\s+|now\s+)?(.{1,100})$/i.exec(plain);
  const subject = match?.[1]?.trim();
  const value = match?.[2]?.trim();
  if (subject === undefined || value === undefined) return null;
  const words = subject.split(/\s+/);
  if (words.length > 6 || NOT_A_SUBJECT.has(words[0]!.toLowerCase()) || CLAUSE_SUBJECT.test(subject) || /^not\b/i.test(value)) return null;
  if (!looksTechnical(subject, original)) return null;
  return { key: slug(subject), value, type: CONFIG_NOUN.test(subject) ? "config" : "architecture" };
}

function ruleStatement(plain: string): Statement | null {
  const match = /^(never|always|do not|don't|must not|must)\s+(.{3,160})$/i.exec(plain);
  if (!match) return null;
  const polarity = /^(?:always|must)$/i.test(match[1]!) ? "always" : "never";
  const keywords = [...extractKeywords(match[2]!)].sort();
  if (keywords.length === 0) return null;
  return { key: `rule:${keywords.slice(0, 8).join("-")}`, value: polarity, type: "constraint" };
}

/** The keyed statement a sentence makes, or null when it makes none (or only speculates). */
export function parseStatement(sentence: string): Statement | null {
  const original = collapseWhitespace(sentence);
  const plain = collapseWhitespace(stripMarkdown(original)).replace(/[.!;]+$/, "");
  if (plain.length === 0 || plain.endsWith("?") || SPECULATIVE.test(plain)) return null;
  const env = /^([A-Z][A-Z0-9_]{2,})=(\S+)$/.exec(plain);
  if (env) return { key: slug(env[1]!), value: env[2]!, type: "config" };
  const changed = settingChanges(plain);
  if (changed.length === 1) return { key: slug(changed[0]!.name), value: changed[0]!.value, type: "config" };
  const useFor = /^(?:we\s+|you\s+)?(?:should\s+|will\s+|must\s+)?use\s+(.{1,60}?)\s+(for|instead of)\s+(.{3,80})$/i.exec(plain);
  if (useFor) {
    const namespace = useFor[2]!.toLowerCase() === "for" ? "use-for" : "use-instead-of";
    return { key: `${namespace}:${slug(useFor[3]!)}`, value: useFor[1]!, type: "decision" };
  }
  const setTo = /^(?:set|change)\s+(.{1,60}?)\s+to\s+(.{1,80})$/i.exec(plain);
  if (setTo) return { key: slug(setTo[1]!), value: setTo[2]!, type: "config" };
  return ruleStatement(plain) ?? isStatement(plain, original);
}

/** The key of a fact's content: its statement key, else "note:" and its sorted keywords. */
export function factKey(content: string): string {
  const statement = parseStatement(content);
  if (statement !== null) return statement.key;
  return `note:${[...extractKeywords(content)].sort().slice(0, 8).join("-")}`;
}
