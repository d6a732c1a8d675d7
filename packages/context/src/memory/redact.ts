import { ASSIGNMENT, redactAssignment } from "./redact-assignment.js";
import { isHighEntropySecret, LONG_TOKEN } from "./redact-entropy.js";

// Secret redaction before anything is persisted or shown (seed 002, safety guardrails). Vendor
// patterns first (they are precise and give the best label), then headers and assignments, then
// the high-entropy fallback. Placeholders look like `[REDACTED:<label>]` and match none of the
// patterns, so redacting twice changes nothing. The README lists what is and is not caught.

export type SecretLabel =
  | "private-key" | "url-password" | "anthropic-key" | "openai-key" | "stripe-key" | "aws-access-key"
  | "github-token" | "slack-token" | "google-api-key" | "jwt" | "bearer" | "authorization"
  | "password" | "token" | "api-key" | "secret" | "high-entropy";

export function placeholder(label: SecretLabel): string {
  return `[REDACTED:${label}]`;
}

interface Rule {
  label: SecretLabel;
  pattern: RegExp;
  /** Keeps the part of the match that is not secret (a header name, a URL's user). */
  keep?: (match: string, ...groups: string[]) => string;
}

const BASE64_LINES = String.raw`(?:\r?\n[ \t]*[A-Za-z0-9+/=]+)*`;

const RULES: readonly Rule[] = [
  {
    label: "private-key",
    pattern: new RegExp(
      String.raw`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|${BASE64_LINES})`,
      "g",
    ),
  },
  {
    label: "url-password",
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)([^\s:@/?#]+):([^\s@/?#]+)@/gi,
    keep: (match, scheme = "", user = "", password = "") =>
      password.startsWith("[REDACTED") ? match : `${scheme}${user}:${placeholder("url-password")}@`,
  },
  { label: "anthropic-key", pattern: /\bsk-ant-[A-Za-z0-9_-]{16,}/g },
  { label: "openai-key", pattern: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { label: "stripe-key", pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { label: "aws-access-key", pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  { label: "github-token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { label: "slack-token", pattern: /\bxox[bpaors]-[A-Za-z0-9-]{10,}/g },
  { label: "google-api-key", pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { label: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    label: "bearer",
    pattern: /\b(Bearer)(\s+)([A-Za-z0-9._~+/-]{12,}=*)/gi,
    keep: (match, word = "", space = "", token = "") =>
      /\d/.test(token) || token.length >= 24 ? `${word}${space}${placeholder("bearer")}` : match,
  },
  {
    label: "authorization",
    pattern: /\b((?:Proxy-)?Authorization\s*[:=]\s*["']?)((?:Basic|Digest|Token|Bearer)\s+)?([^\s"',;]{6,})/gi,
    keep: (match, head = "", scheme = "", value = "") =>
      value.startsWith("[REDACTED") || (!scheme && !/\d/.test(value) && value.length < 20)
        ? match
        : `${head}${scheme}${placeholder("authorization")}`,
  },
];

function applyRule(text: string, rule: Rule): string {
  return text.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
    if (!rule.keep) return placeholder(rule.label);
    const groups = rest.filter((g): g is string => typeof g === "string" || g === undefined).map((g) => g ?? "");
    return rule.keep(match, ...groups);
  });
}

function redactHighEntropy(text: string): string {
  return text.replace(LONG_TOKEN, (token: string, offset: number) =>
    isHighEntropySecret(token, text.slice(Math.max(0, offset - 24), offset)) ? placeholder("high-entropy") : token,
  );
}

/**
 * The text with secrets replaced by `[REDACTED:<label>]`. Pure and idempotent; ordinary content (git
 * SHAs, UUIDs, paths, lockfile hashes, prose) is left as it is.
 */
export function redactSecrets(text: string): string {
  let out = text;
  for (const rule of RULES) out = applyRule(out, rule);
  out = out.replace(ASSIGNMENT, (match: string, keyQuote: string, key: string, sep: string, dq?: string, sq?: string, bare?: string) =>
    redactAssignment(match, keyQuote, key, sep, dq, sq, bare),
  );
  return redactHighEntropy(out);
}
