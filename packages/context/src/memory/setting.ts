// A named setting the agent changed: "Lowering it to REFRESH_SKEW_MS=5000: the test refreshed twice",
// "Set NODE_OPTIONS=--max-old-space-size=4096 for the build". Such a line is a decision, and a later
// line that changes the same name supersedes it, in the running decisions as in the facts: a resumed
// agent must see the current value, never the old one beside it.

export interface SettingChange {
  name: string;
  value: string;
}

/** NAME=value with an upper-case name of three or more characters, not inside a longer word. */
const ASSIGNMENT = /(?<![\w$.-])([A-Z][A-Z0-9_]{2,})=([^\s`'",;)\]]+)/g;

/** The line's first word says it changes something (optionally after "I'll", "we have", ...). */
const CHANGE_VERB = new RegExp(
  "^(?:(?:i|we)(?:'ll|'ve| will| have)?\\s+)?(?:" +
    [
      "set(?:s|ting)?",
      "chang(?:e|es|ed|ing)",
      "lower(?:s|ed|ing)?",
      "rais(?:e|es|ed|ing)",
      "reduc(?:e|es|ed|ing)",
      "increas(?:e|es|ed|ing)",
      "bump(?:s|ed|ing)?",
      "switch(?:es|ed|ing)?",
      "mov(?:e|es|ed|ing)",
      "us(?:e|es|ed|ing)",
      "pin(?:s|ned|ning)?",
      "cap(?:s|ped|ping)?",
      "limit(?:s|ed|ing)?",
      "renam(?:e|es|ed|ing)",
      "keep(?:s|ing)?",
      "kept",
    ].join("|") +
    ")\\b",
  "i",
);

/** The settings a plain prose line changes: none unless it starts with a change verb. */
export function settingChanges(plain: string): SettingChange[] {
  if (!CHANGE_VERB.test(plain.trim())) return [];
  return [...plain.matchAll(ASSIGNMENT)]
    .map((m) => ({ name: m[1]!, value: m[2]!.replace(/[.:!?]+$/, "") }))
    .filter((s) => s.value.length > 0);
}

/** The names of the settings a text changes, for supersede checks. */
export function settingNames(plain: string): Set<string> {
  return new Set(settingChanges(plain).map((s) => s.name));
}
