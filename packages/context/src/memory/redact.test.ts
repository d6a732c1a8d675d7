import { describe, expect, it } from "vitest";
import { redactSecrets } from "./redact.js";

// Fake credentials of the right shapes (none is real).
const SECRETS: Array<[kind: string, text: string, label: string]> = [
  ["anthropic key", "ANTHROPIC_KEY is sk-ant-api03-Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0-AbCdEf", "anthropic-key"],
  ["openai key", "key sk-proj-Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0abc", "openai-key"],
  ["aws access key id", "aws id AKIAIOSFODNN7EXAMPLE in config", "aws-access-key"],
  ["github classic token", "push with ghp_Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0abcd", "github-token"],
  ["github oauth token", "gho_Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0abcd", "github-token"],
  ["github fine-grained token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github-token"],
  ["slack bot token", "SLACK xoxb-123456789012-1234567890123-AbCdEfGhIjKl", "slack-token"],
  ["slack user token", "xoxp-123456789012-abcdefghijkl", "slack-token"],
  ["google api key", "maps key AIzaSyA-1234567890abcdefghijklmnopqrstu", "google-api-key"],
  ["bearer token", "curl -H 'Authorization: Bearer abc123def456ghi789jkl'", "bearer"],
  ["basic authorization", "Authorization: Basic dXNlcjpwYXNzd29yZDEyMw==", "authorization"],
  ["jwt", "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt"],
  ["password assignment", "DB_PASSWORD=hunter2!", "password"],
  ["token yaml assignment", "github_token: 'abc123xyz'", "token"],
  ["api key json", '{"apiKey": "k-123-456-789"}', "api-key"],
  ["client secret", 'client_secret = "s3cr3t-value"', "secret"],
  ["url with credentials", "DATABASE_URL=postgres://admin:s3cretpw@db.example.com:5432/app", "url-password"],
  ["high-entropy string", "session secret Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0 stored", "high-entropy"],
  ["unlabelled 32-hex key", "use 9f86d081884c7d659a2feaa0c55ad015 as key", "high-entropy"],
];

const BENIGN: Array<[kind: string, text: string]> = [
  ["git sha", "HEAD is 3f2a9c1e4b5d6a7f8e9d0c1b2a3f4e5d6c7b8a9f on main"],
  ["short sha", "fixed in 3f2a9c1"],
  ["sha256 digest", "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
  ["uuid", "session 123e4567-e89b-12d3-a456-426614174000 resumed"],
  ["paths", "edit packages/context/src/memory/decision-extract.ts and node_modules/.pnpm/yaml@2.9.1/node_modules/yaml/dist/index.js"],
  ["long path without dots", "see packages/context/src/memory/open-items-extract/helpers/more"],
  ["lockfile integrity", "integrity: sha512-Xyz9kLm3NpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOp=="],
  ["lockfile resolution", "resolution: {integrity: sha1-Zx8Kq2LmP9vR4tYw7nB3cD6fG1h=}"],
  ["prose", "The quick brown fox jumps over the lazy dog; tokens are counted per message, and passwords are never logged."],
  ["identifiers", "call extractDecisionFromResponseWithFallbackHandler and test_case_number_12_for_the_parser"],
  ["typed code", "interface Auth { token: string; apiKey?: string; password: Password }"],
  ["code references", "const token = getToken(); const apiKey = process.env.API_KEY; password = options.password"],
  ["numbers under token keys", "max_tokens: 500, token_count=12, tokenizer: cl100k"],
  ["markdown", "## Current Plan\n1. [x] Explore\n2. [ ] Implement `redactSecrets`"],
  ["env references", "API_KEY=${API_KEY} and TOKEN=$GITHUB_TOKEN"],
  ["prose bearer", "Bearer authentication is described in RFC 6750."],
];

describe("redactSecrets", () => {
  for (const [kind, text, label] of SECRETS) {
    it(`redacts a ${kind}`, () => {
      const out = redactSecrets(text);
      expect(out).toContain(`[REDACTED:${label}]`);
      expect(out).not.toBe(text);
    });
  }

  it("redacts private key blocks whole", () => {
    const text =
      "key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nQyNTUxOQAAACDx\n-----END OPENSSH PRIVATE KEY-----\ndone";
    expect(redactSecrets(text)).toBe("key:\n[REDACTED:private-key]\ndone");
  });

  it("keeps the user of a URL with credentials and the rest of the URL", () => {
    expect(redactSecrets("postgres://admin:s3cretpw@db.example.com:5432/app")).toBe(
      "postgres://admin:[REDACTED:url-password]@db.example.com:5432/app",
    );
  });

  it("keeps assignment keys and quotes", () => {
    expect(redactSecrets('password: "hunter2"')).toBe('password: "[REDACTED:password]"');
    expect(redactSecrets("?access_token=abc123&page=2")).toBe("?access_token=[REDACTED:token]&page=2");
  });

  for (const [kind, text] of BENIGN) {
    it(`leaves ${kind} intact`, () => {
      expect(redactSecrets(text)).toBe(text);
    });
  }

  it("is idempotent", () => {
    const all = [...SECRETS.map(([, text]) => text), ...BENIGN.map(([, text]) => text)].join("\n");
    const once = redactSecrets(all);
    expect(redactSecrets(once)).toBe(once);
  });

  it("never leaves the secret part behind", () => {
    const out = redactSecrets(SECRETS.map(([, text]) => text).join("\n"));
    for (const fragment of ["Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0", "AKIAIOSFODNN7EXAMPLE", "hunter2", "s3cretpw", "dXNlcjpwYXNz"]) {
      expect(out).not.toContain(fragment);
    }
  });
});
