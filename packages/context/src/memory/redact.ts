import { ASSIGNMENT, redactAssignment } from "./redact-assignment.js";
import { isHighEntropySecret, LONG_TOKEN } from "./redact-entropy.js";
import { withUnboundedRuns } from "./regex-runs.js";

// Secret redaction before anything is persisted or shown (docs/design/memory-and-recall.md). Vendor
// patterns first (they are precise and give the best label), then headers and assignments, then
// the high-entropy fallback. Placeholders look like `[REDACTED:<label>]` and match none of the
// patterns, so redacting twice changes nothing. The README lists what is and is not caught.
// Every pattern is linear in its input: a match starts only where a run of its characters starts
// (a lookbehind), or scans a bounded stretch, so a 10 MB line without a newline is not rescanned
// from each of its positions (which took minutes for 100 KB).

export type SecretLabel =
  | "private-key"
  | "url-password"
  | "anthropic-key"
  | "openai-key"
  | "stripe-key"
  | "aws-access-key"
  | "github-token"
  | "slack-token"
  | "google-api-key"
  | "jwt"
  | "bearer"
  | "authorization"
  | "password"
  | "token"
  | "api-key"
  | "secret"
  | "high-entropy";

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

const RULES: readonly Rule[] = (
  [
    {
      label: "private-key",
      pattern: new RegExp(
        // The body stops at the next BEGIN: headers without an END are not each scanned to the end.
        String.raw`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:(?:(?!-----BEGIN )[\s\S])*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|${BASE64_LINES})`,
        "g",
      ),
    },
    {
      label: "url-password",
      // Schemes are short: a bounded scan from every word start ("a.a.a.a...") stays linear.
      pattern: /\b([a-z][a-z0-9+.-]{0,31}:\/\/)([^\s:@/?#]+):([^\s@/?#]+)@/gi,
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
    { label: "jwt", pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
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
  ] satisfies Rule[]
).map((rule) => ({ ...rule, pattern: withUnboundedRuns(rule.pattern) }));

const TOKENS = withUnboundedRuns(LONG_TOKEN);

function applyRule(text: string, rule: Rule): string {
  return text.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
    if (!rule.keep) return placeholder(rule.label);
    const groups = rest.filter((g): g is string | undefined => typeof g === "string" || g === undefined).map((g) => g ?? "");
    return rule.keep(match, ...groups);
  });
}

function redactHighEntropy(text: string): string {
  return text.replace(TOKENS, (token: string, offset: number) =>
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
  out = out.replace(
    ASSIGNMENT,
    (match: string, keyQuote: string | undefined, lead: string, key: string, sep: string, dq?: string, sq?: string, bare?: string) =>
      redactAssignment(match, keyQuote ?? "", lead, key, sep, dq, sq, bare),
  );
  return redactHighEntropy(out);
}
