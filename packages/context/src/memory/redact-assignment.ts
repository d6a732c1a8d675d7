// `password=...`, `"apiKey": "..."`, `GITHUB_TOKEN: ...`-style assignments. The key decides whether
// the value is secret; the value's shape decides whether it is a literal worth hiding, so that code
// such as `token: string`, `apiKey: process.env.KEY` or `const token = getToken()` stays readable.

const SECRET_WORDS = new Set(["password", "passwd", "pwd", "passphrase", "secret", "token", "apikey", "credential", "credentials"]);
const SECRET_PAIRS = new Set(["api key", "access key", "secret key", "private key", "auth key", "signing key", "client secret"]);
const NOT_LITERAL = new Set([
  "string",
  "number",
  "boolean",
  "bigint",
  "null",
  "undefined",
  "none",
  "true",
  "false",
  "any",
  "unknown",
  "optional",
  "required",
  "str",
  "int",
  "bool",
  "object",
  "void",
  "never",
  "redacted",
]);

/** Key words: camelCase and snake/kebab/dot separators split, lowercased. */
function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_.-]+/)
    .map((w) => w.toLowerCase())
    .filter(Boolean);
}

function isSecretKey(key: string): boolean {
  const words = keyWords(key);
  const last = words.at(-1) ?? "";
  const pair = words.slice(-2).join(" ");
  return SECRET_WORDS.has(last) || SECRET_PAIRS.has(pair);
}

type PlaceholderLabel = "password" | "token" | "api-key" | "secret";

function labelForKey(key: string): PlaceholderLabel {
  const words = keyWords(key);
  if (words.some((w) => ["password", "passwd", "pwd", "passphrase"].includes(w))) return "password";
  if (words.includes("token")) return "token";
  if (words.includes("key") || words.includes("apikey")) return "api-key";
  return "secret";
}

/**
 * Whether an assigned value is a literal secret. Quoted values always are; unquoted values after a
 * tight `=` (env files, CLI flags, query strings) are; others only when they contain a digit or are
 * long, since `key: word` is usually a type or a reference.
 */
function isSecretLiteral(value: string, quoted: boolean, tightEquals: boolean): boolean {
  const v = value.trim();
  if (v.length < 3 || v.startsWith("[REDACTED")) return false;
  if (/^(?:\$|%|<|\{|\(|\*{3,}|process\.env|os\.environ|env\.)/.test(v)) return false;
  if (NOT_LITERAL.has(v.toLowerCase())) return false;
  if (quoted) return true;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v) || /^[\w$.]+\(/.test(v)) return false;
  if (tightEquals) return true;
  return /\d/.test(v) || v.length >= 12;
}

// key, separator, then a quoted or bare value. The key may itself be quoted (JSON). An unquoted key
// starts where its run of key characters starts (`--db-password`: the lead `--` is kept apart), never
// inside it: trying every position of a long identifier made redaction quadratic.
export const ASSIGNMENT =
  /(?:(["'])|(?<![A-Za-z0-9_.-]))([0-9.-]*)([A-Za-z_][A-Za-z0-9_.-]*)\1(\s*(?::|=)\s*)(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"',;&)}\]]+))/g;

/** Replacement for one ASSIGNMENT match, or the match itself when it is not a secret. */
export function redactAssignment(
  match: string,
  keyQuote: string,
  lead: string,
  key: string,
  sep: string,
  dq?: string,
  sq?: string,
  bare?: string,
): string {
  if (!isSecretKey(key)) return match;
  const quote = dq !== undefined ? '"' : sq !== undefined ? "'" : "";
  const value = dq ?? sq ?? bare ?? "";
  if (!isSecretLiteral(value, quote !== "", sep === "=")) return match;
  return `${keyQuote}${lead}${key}${keyQuote}${sep}${quote}[REDACTED:${labelForKey(key)}]${quote}`;
}
