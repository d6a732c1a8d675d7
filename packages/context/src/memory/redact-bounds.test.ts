import { describe, expect, it } from "vitest";
import { redactSecrets } from "./redact.js";

// Redaction runs on every reply and tool result before it is stored, on the loop's thread: it must
// be linear in the input, whatever the input. Each shape below once made a pattern rescan a long run
// from every position in it (a 100 KB reply took minutes, 10 MB never finished). No time is asserted:
// at these sizes a rescan runs for hours, past the runner's ceiling, so it fails without a clock that
// a loaded machine could break; `pnpm bench redaction` measures.

const MB = 1_000_000;
const SECRETS = " password=hunter2xyz sk-ant-api03-Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0-AbCdEf";

const repeat = (unit: string, chars: number) => unit.repeat(Math.ceil(chars / unit.length));

/** Single lines with no newline anywhere: runs of one character class, separators inside runs. */
const ADVERSARIAL: Array<[shape: string, unit: string]> = [
  ["one identifier", "a"],
  ["dotted identifier", "a."],
  ["dashed identifier", "a-"],
  ["repeated JWT starts", "eyJ-"],
  ["repeated key prefixes", "sk-"],
  ["repeated URL schemes", "a://b:"],
  ["repeated assignments", 'a="'],
  ["private key headers without an end", "-----BEGIN RSA PRIVATE KEY-----"],
  ["base64 with padding runs", "QUJD==="],
  ["quotes", '"'],
  ["whitespace", " \t"],
];

describe("redactSecrets on long single lines", () => {
  it.each(ADVERSARIAL)("is linear on %s (1 MB), and still redacts what follows", (_shape, unit) => {
    const out = redactSecrets(repeat(unit, MB) + SECRETS);
    expect(out).toContain("password=[REDACTED:password]");
    expect(out).toContain("[REDACTED:anthropic-key]");
    expect(out).not.toContain("hunter2xyz");
  });

  it("finishes a 10 MB reply of prose with secrets in it, changing only the secrets", () => {
    const prose = repeat("The quick brown fox jumps over the lazy dog, then reads src/auth/token.ts again. ", 10 * MB);
    const out = redactSecrets(`${prose}${SECRETS} ${prose}`);
    expect(out).toBe(`${prose} password=[REDACTED:password] [REDACTED:anthropic-key] ${prose}`);
  });

  it("finishes a 10 MB identifier and a 10 MB token of separators", () => {
    for (const unit of ["a", "a-", "Zx8Kq2LmP9vR4tYw7nB3/"]) {
      const out = redactSecrets(repeat(unit, 10 * MB) + SECRETS);
      expect(out).toContain("[REDACTED:anthropic-key]");
    }
  });

  it.each([
    ["sk-ant-", "anthropic-key"],
    ["ghp_", "github-token"],
    ["Bearer ", "bearer"],
    ["Authorization: Basic ", "authorization"],
    ["password=", "password"],
    ["-----BEGIN RSA PRIVATE KEY-----\n", "private-key"],
  ])("redacts %s followed by a 2 MB run whole", (prefix, label) => {
    const out = redactSecrets(`${prefix}${repeat("Zx8Kq2LmP9vR4tYw7nB3", 2 * MB)} tail`);
    expect(out).toMatch(new RegExp(`\\[REDACTED:${label}\\] tail$`));
  });
});
