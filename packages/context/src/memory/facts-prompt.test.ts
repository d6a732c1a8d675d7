import { describe, expect, it } from "vitest";
import { MARKERS } from "../markers.js";
import type { Message } from "../messages.js";
import { buildFactExtractionPrompt, parseFactExtractionResponse } from "./facts-prompt.js";

describe("buildFactExtractionPrompt", () => {
  const messages: Message[] = [
    { role: "user", content: "Fix login. The API token is ghp_Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0abcd" },
    { role: "user", content: `${MARKERS.gauge}80%]` },
    { role: "assistant", content: "Using PostgreSQL instead of MySQL." },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "x".repeat(5000) }] },
  ];

  it("lists types, known facts and the conversation, redacted and clipped", () => {
    const prompt = buildFactExtractionPrompt(messages, { known: [{ id: 1, key: "db", type: "decision", content: "Use PostgreSQL" }] });
    expect(prompt).toContain("decision, implementation, config, issue, task_state, architecture");
    expect(prompt).toContain("- [decision] Use PostgreSQL");
    expect(prompt).toContain("[user]: Fix login. The API token is [REDACTED:github-token]");
    expect(prompt).toContain("[assistant]: Using PostgreSQL instead of MySQL.");
    expect(prompt).toContain("... [truncated]");
    expect(prompt).not.toContain(MARKERS.gauge);
  });

  it("drops the oldest messages to stay within maxChars", () => {
    const prompt = buildFactExtractionPrompt(
      [
        { role: "user", content: "OLDEST message" },
        { role: "assistant", content: "y".repeat(1500) },
      ],
      { maxChars: 2500 },
    );
    expect(prompt).not.toContain("OLDEST");
    expect(prompt).toContain("y".repeat(100));
  });
});

describe("parseFactExtractionResponse", () => {
  it("parses a JSON array, also inside a fence, deriving missing keys", () => {
    const reply =
      'Here you go:\n```json\n[{"type":"config","key":"API Port","content":"The API port is 3000"},{"type":"decision","content":"Use pnpm for package management"}]\n```';
    expect(parseFactExtractionResponse(reply)).toEqual({
      ok: true,
      facts: [
        { key: "api-port", type: "config", content: "The API port is 3000", seq: 0 },
        { key: "use-for:package-management", type: "decision", content: "Use pnpm for package management", seq: 1 },
      ],
    });
  });

  it("accepts an empty array", () => {
    expect(parseFactExtractionResponse("[]")).toEqual({ ok: true, facts: [] });
  });

  it("drops facts that contain secrets", () => {
    const result = parseFactExtractionResponse('[{"type":"config","content":"password=hunter2!"}]');
    expect(result).toEqual({ ok: true, facts: [] });
  });

  it.each([
    ["no array", "I found nothing of note."],
    ["invalid JSON", "[{type: config}]"],
    ["not an array", '{"type":"config"}'],
    ["unknown type", '[{"type":"gossip","content":"x"}]'],
    ["missing content", '[{"type":"config"}]'],
    ["non-object item", '["The API port is 3000"]'],
  ])("reports %s as an error so the caller falls back to the rules", (_name, reply) => {
    const result = parseFactExtractionResponse(reply);
    expect(result.ok).toBe(false);
  });
});
