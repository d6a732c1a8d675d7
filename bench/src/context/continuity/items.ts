// What an agent "uses" in one response: the concrete things it names in its text and tool inputs
// that it could only have read somewhere (paths, code identifiers, quoted strings such as error
// messages or patterns, numbers and hashes). Plain words are left out: the agent knows those
// without any context. The extraction is deliberately simple and the same for every strategy;
// what counts is the comparison.

const PATH = /(?:[\w.@~+-]+\/)+[\w.@+-]+|\b[\w@+-]{2,}\.[A-Za-z][A-Za-z0-9]{0,7}\b/g;
const IDENTIFIER = /\b[A-Za-z_$][\w$]{3,}\b/g;
const DOTTED = /\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\b/g;
const NUMBER = /\b\d+\.\d+(?:\.\d+)*\b|\b\d{4,}\b/g;
const HEX = /\b[0-9a-f]{7,40}\b/g;
const QUOTED = /"([^"\n]{6,80})"|'([^'\n]{6,80})'|`([^`\n]{6,80})`/g;

/** Paths every machine has: naming them needs no context. */
const COMMON = new Set(["dev/null", "usr/bin", "usr/local", "bin/bash", "bin/sh", "usr/bin/env"]);
/** Shell and regex syntax in a quoted string: a command fragment, not a message or a value. */
const SYNTAX = /[;|^$\\{}<>]|&&/;

/** Items of one text: each at least 4 characters, trimmed of trailing punctuation. */
export function itemsOf(text: string): Set<string> {
  const items = new Set<string>();
  const add = (item: string | undefined) => {
    const t = item?.replace(/[.,:;)\]}]+$/, "").trim();
    if (t && t.length >= 4 && !COMMON.has(t.replace(/^\//, ""))) items.add(t);
  };
  for (const m of text.matchAll(PATH)) add(m[0]);
  for (const m of text.matchAll(DOTTED)) add(m[0]);
  for (const m of text.matchAll(IDENTIFIER)) if (codeShaped(m[0])) add(m[0]);
  for (const m of text.matchAll(NUMBER)) add(m[0]);
  for (const m of text.matchAll(HEX)) if (/\d/.test(m[0]) && /[a-f]/.test(m[0])) add(m[0]);
  for (const m of text.matchAll(QUOTED)) {
    const quoted = m[1] ?? m[2] ?? m[3];
    if (quoted && !SYNTAX.test(quoted)) add(quoted);
  }
  return items;
}

/** camelCase, snake_case, PascalCase with two humps, or letters mixed with digits: not a plain word. */
function codeShaped(word: string): boolean {
  return /[a-z][A-Z]/.test(word) || /[A-Za-z]_|_[A-Za-z]/.test(word) || /[A-Z][a-z]+[A-Z]/.test(word) || /[A-Za-z]\d|\d[A-Za-z]/.test(word);
}
