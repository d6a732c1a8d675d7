import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseTranscript, readTranscript, TranscriptError } from "./transcript.js";

const line = (value: unknown): string => JSON.stringify(value);

describe("transcript files", () => {
  it("reads one message per line, blank lines skipped, string or block content", () => {
    const text = [
      line({ role: "user", content: "fix the bug" }),
      "",
      line({
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hmm", signature: "s" },
          { type: "text", text: "Reading." },
          { type: "tool_use", id: "t1", name: "read_file", input: { path: "a.ts" } },
        ],
      }),
      line({
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "t1",
            content: [
              { type: "text", text: "code" },
              { type: "image", source: { type: "base64", media_type: "image/png", data: "x" } },
            ],
            is_error: true,
          },
        ],
      }),
      "   ",
    ].join("\n");
    const { messages, times } = parseTranscript(text, "t.jsonl");
    expect(messages).toHaveLength(3);
    expect(times).toEqual([null, null, null]);
    expect(messages[0]).toEqual({ role: "user", content: "fix the bug" });
    const result = messages[2]!.content[0];
    expect(result).toMatchObject({ type: "tool_result", tool_use_id: "t1", is_error: true });
  });

  it("reads each message's optional time as epoch ms, null where absent", () => {
    const text = [
      line({ role: "user", content: "go", at: "2025-07-16T20:12:02.094Z" }),
      line({ role: "assistant", content: [{ type: "text", text: "ok" }] }),
      line({ role: "user", content: "more", at: "2025-07-16T21:12:02Z" }),
    ].join("\n");
    const { messages, times } = parseTranscript(text, "t.jsonl");
    expect(messages[0]).toEqual({ role: "user", content: "go" });
    expect(times).toEqual([Date.UTC(2025, 6, 16, 20, 12, 2, 94), null, Date.UTC(2025, 6, 16, 21, 12, 2)]);
  });

  it.each([
    ["not json", "invalid JSON"],
    [line({ role: "user", content: "x", at: "yesterday" }), '"at" must be an ISO-8601 date string, got "yesterday"'],
    [line({ role: "user", content: "x", at: 1752696722094 }), '"at" must be an ISO-8601 date string, got 1752696722094'],
    [line([1, 2]), "expected a JSON object"],
    [line({ role: "system", content: "x" }), 'role must be "user" or "assistant", got "system"'],
    [line({ role: "user", content: 5 }), "content must be a string or an array"],
    [line({ role: "assistant", content: [{ type: "video" }] }), 'content[0]: unknown content block type "video"'],
    [line({ role: "assistant", content: [{ type: "tool_use", id: "t", input: {} }] }), 'content[0]: tool_use block needs a string "name"'],
    [
      line({ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: [{ type: "audio" }] }] }),
      "must be a text or image block",
    ],
  ])("rejects %s with a one-line error naming the file and line", (bad, reason) => {
    const text = [line({ role: "user", content: "task" }), "", bad].join("\n");
    let error: unknown;
    try {
      parseTranscript(text, "my.jsonl");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TranscriptError);
    const message = (error as Error).message;
    expect(message.startsWith("my.jsonl:3: ")).toBe(true);
    expect(message).toContain(reason);
    expect(message).not.toContain("\n");
  });

  it("names a missing or empty file", () => {
    expect(() => readTranscript("/nonexistent/x.jsonl")).toThrow("/nonexistent/x.jsonl: cannot read (ENOENT)");
    const dir = mkdtempSync(join(tmpdir(), "bench-t-"));
    writeFileSync(join(dir, "empty.jsonl"), "\n\n");
    expect(() => readTranscript(join(dir, "empty.jsonl"))).toThrow("empty.jsonl: no messages");
  });
});
