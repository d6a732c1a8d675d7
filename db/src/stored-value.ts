import { jsonText, MAX_JSON_DEPTH } from "@hatloop/context";

// What Postgres text and jsonb cannot hold — NUL (U+0000), a lone UTF-16 surrogate — arrives in
// model text, tool input, command output and files. Every text and jsonb column goes through this
// escaping (see stored-columns.ts), so such content is stored faithfully instead of failing the write
// (and the session), and reads back exactly as written.
//
// The escape character is U+FFFF, a Unicode noncharacter that text does not contain; it is itself
// escaped when it does occur. Strings without any of the three are stored unchanged, so rows written
// before this escaping read back as they were, and search sees the same words.
//   U+0000 → ESC "0"     ESC → ESC ESC     a lone surrogate → ESC "u" + its 4 hex digits
// JSON nested deeper than MAX_JSON_DEPTH is kept as { "<ESC>json": "<its JSON text>" } (a key no
// escaped key can equal): Postgres and JSON.stringify both give up on very deep values.

const ESC = "\uffff";
const DEEP = `${ESC}json`;
// No `u` flag: the pattern works on UTF-16 code units, which is what a lone surrogate is.
// eslint-disable-next-line no-control-regex -- NUL is one of the characters Postgres cannot store
const UNSTORABLE = /[\u0000\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ESCAPED = /\uffff(?:(0)|(\uffff)|u([0-9a-f]{4}))/g;

export function escapeText(text: string): string {
  UNSTORABLE.lastIndex = 0;
  if (!UNSTORABLE.test(text)) return text;
  return text.replace(UNSTORABLE, (c) =>
    c === "\u0000" ? `${ESC}0` : c === ESC ? `${ESC}${ESC}` : `${ESC}u${c.charCodeAt(0).toString(16)}`,
  );
}

/** Search words: what no column can hold becomes a space (it separates words, as in the index). */
export function searchableWords(text: string): string {
  return text.replace(UNSTORABLE, " ");
}

export function unescapeText(text: string): string {
  if (!text.includes(ESC)) return text;
  return text.replace(ESCAPED, (match, nul?: string, esc?: string, hex?: string) =>
    nul ? "\u0000" : esc ? ESC : hex ? String.fromCharCode(parseInt(hex, 16)) : match,
  );
}

/** A JSON value ready for jsonb: strings and keys escaped, depth bounded. */
export function escapeJson(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return escapeText(value);
  if (typeof value !== "object" || value === null) return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return value; // a Date: written as its string
  if (depth >= MAX_JSON_DEPTH) return { [DEEP]: jsonText(value) };
  if (Array.isArray(value)) return value.map((item) => escapeJson(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [escapeText(key), escapeJson(item, depth + 1)]));
}

/** The value escapeJson was given, from what jsonb gave back. */
export function unescapeJson(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return unescapeText(value);
  // escapeJson writes nothing deeper; a row from before it cannot hold an escape: no deeper walk.
  if (typeof value !== "object" || value === null || depth > MAX_JSON_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => unescapeJson(item, depth + 1));
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === DEEP) return JSON.parse((value as Record<string, string>)[DEEP]!) as unknown;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [unescapeText(key), unescapeJson(item, depth + 1)]));
}
