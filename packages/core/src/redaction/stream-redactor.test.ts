import { describe, expect, it } from "vitest";
import { redactSecrets } from "@hatloop/context";
import type { LoopEvent } from "../events.js";
import { redactingSink } from "./redacting-sink.js";
import { StreamRedactor } from "./stream-redactor.js";

// Fake credentials of the right shapes (none is real).
const KEY = "sk-ant-api03-Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0-AbCdEf";
const TEXTS = [
  `I will use ${KEY} for the call.\nNext line.\n`,
  "DB_PASSWORD=hunter2!\nand the URL postgres://admin:s3cretpw@db.example.com:5432/app done",
  "password:\n  s3cr3tValue9\nok\n",
  "curl -H 'Authorization: Bearer abc123def456ghi789jkl' https://x\n",
  "key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nQyNTUxOQAAACDx\n-----END OPENSSH PRIVATE KEY-----\ndone",
  `${"word ".repeat(900)}ghp_Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0abcd ${"more ".repeat(900)}`,
];

function streamed(text: string, size: number): string {
  const redactor = new StreamRedactor();
  let out = "";
  for (let i = 0; i < text.length; i += size) out += redactor.push(text.slice(i, i + size));
  return out + redactor.end();
}

describe("StreamRedactor", () => {
  it.each(TEXTS.map((t, i) => [i, t] as const))("redacts text %i in any pieces as it redacts the whole", (_, text) => {
    for (const size of [1, 2, 3, 5, 8, 13, 40, 1000]) expect(streamed(text, size)).toBe(redactSecrets(text));
  });

  it("emits at once all but the word being written, and what introduces a value", () => {
    const redactor = new StreamRedactor();
    expect(redactor.push("first line\nsecond li")).toBe("first line\nsecond ");
    expect(redactor.held).toBe("li");
    expect(redactor.push(`ne ${KEY.slice(0, 10)}`)).toBe("line ");
    expect(redactor.push(`${KEY.slice(10)}\nthird`)).toBe("[REDACTED:anthropic-key]\n");
    expect(redactor.push(" and the password: ")).toBe("third and the ");
    expect(redactor.push("hunter22 ok")).toBe("password: [REDACTED:password] ");
    expect(redactor.push(' then secret = "two words')).toBe("ok then ");
    expect(redactor.end()).toBe('secret = "two words');
  });

  it("never shows a secret that redacting the whole text hides, in random prose and pieces", () => {
    const secrets = [
      KEY,
      "postgres://app:Pw9xQ2mZr7Lk@db:5432/x",
      "password: hunter33y",
      'api_key = "one two77 three"',
      "Authorization: Basic dXNlcjpwYXNzd29yZDEyMw==",
      "password:\n  s3cr3tValue9",
      TEXTS[4]!,
    ];
    const needles = [
      "Zx8Kq2LmP9vR4tYw7nB3",
      "Pw9xQ2mZr7Lk",
      "hunter33y",
      "two77",
      "dXNlcjpwYXNzd29yZDEyMw",
      "s3cr3tValue9",
      "QyNTUxOQAAACDx",
    ];
    const words = ["the", "fix", "\n", " ", "code:", "a=b", "`", "## Plan\n", "note:", "- item\n", "(see", "it)"];
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), Math.floor((seed / 2147483648) * n));
    for (let n = 0; n < 2_000; n++) {
      const text = Array.from({ length: 5 + random(40) }, () =>
        random(7) === 0 ? secrets[random(secrets.length)] : `${words[random(words.length)]} `,
      ).join("");
      const redactor = new StreamRedactor();
      let out = "";
      for (let i = 0; i < text.length;) {
        const size = 1 + random(12);
        out += redactor.push(text.slice(i, i + size));
        i += size;
      }
      out += redactor.end();
      const whole = redactSecrets(text);
      for (const needle of needles) if (!whole.includes(needle)) expect(out, JSON.stringify(text)).not.toContain(needle);
    }
  });

  it("holds a bounded tail", () => {
    const redactor = new StreamRedactor();
    expect(redactor.push("abc ".repeat(2_000)).length).toBe(7_996);
    expect(redactor.held).toBe("abc ");
    const blob = redactor.push("x".repeat(70_000));
    expect(blob.length).toBeGreaterThan(0);
    expect(redactor.held).toBe("");
  });
});

describe("redactingSink", () => {
  const text = (t: string, iteration = 1): LoopEvent => ({ v: 1, sessionId: "s", iteration, ts: 0, type: "model.text", data: { text: t } });

  it("shows streamed text redacted as one stream, its tail before the next event, other payloads redacted", () => {
    const seen: LoopEvent[] = [];
    const sink = redactingSink((e) => seen.push(e));
    for (const piece of [`key ${KEY.slice(0, 8)}`, KEY.slice(8, 30), `${KEY.slice(30)} end`]) sink(text(piece));
    sink({ v: 1, sessionId: "s", iteration: 1, ts: 0, type: "tool.call", data: { id: "t", name: "run_command", summary: `echo ${KEY}` } });
    sink(text("unfinished"));
    sink.end();
    const shown = seen.map((e) => (e.type === "model.text" ? e.data.text : `<${e.type} ${JSON.stringify(e.data)}>`)).join("");
    expect(shown).toBe(
      `key [REDACTED:anthropic-key] end<tool.call ${JSON.stringify({ id: "t", name: "run_command", summary: "echo [REDACTED:anthropic-key]" })}>unfinished`,
    );
  });
});
