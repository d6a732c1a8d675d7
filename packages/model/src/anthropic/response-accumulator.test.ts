import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import { ApiFailure } from "../retry/api-failure.js";
import { ResponseAccumulator } from "./response-accumulator.js";

// Raw events built as plain JSON, as they come off the wire; the SDK types require many nullable fields.
function events(lines: unknown[]): RawMessageStreamEvent[] {
  return lines as RawMessageStreamEvent[];
}

const start = {
  type: "message_start",
  message: {
    model: "claude-haiku-4-5",
    usage: { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: null, cache_creation_input_tokens: null },
  },
};
const toolStart = { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "t1", name: "run", input: {} } };
const badJson = { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"cmd": "l' } };
const stop = (reason: string | null) => ({ type: "message_delta", delta: { stop_reason: reason }, usage: { output_tokens: 9 } });

function accumulate(lines: unknown[]): ResponseAccumulator {
  const acc = new ResponseAccumulator();
  for (const e of events(lines)) acc.apply(e);
  return acc;
}

describe("ResponseAccumulator", () => {
  it("fails retriably when the stream ends before message_stop", () => {
    const acc = accumulate([start, { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }]);
    expect(() => acc.finish()).toThrow(ApiFailure);
    expect(() => acc.finish()).toThrow("stream ended before message_stop");
  });

  it("fails retriably on unparsable tool JSON unless max_tokens explains it", () => {
    const garbled = accumulate([
      start,
      toolStart,
      badJson,
      { type: "content_block_stop", index: 0 },
      stop("tool_use"),
      { type: "message_stop" },
    ]);
    expect(() => garbled.finish()).toThrow(/tool_use run ended with invalid input JSON/);
    const truncated = accumulate([start, toolStart, badJson, stop("max_tokens"), { type: "message_stop" }]);
    expect(truncated.finish()).toMatchObject({ stopReason: "max_tokens", message: { content: [] } });
  });

  it("keeps message_start usage when message_delta leaves fields null, and infers a missing stop reason", () => {
    const acc = accumulate([start, toolStart, { type: "content_block_stop", index: 0 }, stop(null), { type: "message_stop" }]);
    const result = acc.finish();
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(result.stopReason).toBe("tool_use");
    expect(result.message.content).toEqual([{ type: "tool_use", id: "t1", name: "run", input: {} }]);
  });

  it("keeps blank text blocks as sent, and reads a refusal's stop_details", () => {
    const text = (index: number, t: string) => [
      { type: "content_block_start", index, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index, delta: { type: "text_delta", text: t } },
      { type: "content_block_stop", index },
    ];
    const details = { type: "refusal", category: "cyber", explanation: "declined" };
    const acc = accumulate([
      start,
      ...text(0, "\n\n"),
      ...text(1, "Sure"),
      { type: "message_delta", delta: { stop_reason: "refusal", stop_details: details }, usage: { output_tokens: 3 } },
      { type: "message_stop" },
    ]);
    const result = acc.finish();
    expect(result.message.content).toEqual([
      { type: "text", text: "\n\n" },
      { type: "text", text: "Sure" },
    ]);
    expect(result).toMatchObject({ stopReason: "refusal", refusal: { category: "cyber", explanation: "declined" } });
  });

  it("names the tool calls the output limit cut, even one whose partial JSON happens to parse", () => {
    const complete = { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"cmd": "ls"}' } };
    const cut = accumulate([
      start,
      toolStart,
      complete,
      { type: "content_block_stop", index: 0 },
      stop("max_tokens"),
      { type: "message_stop" },
    ]);
    expect(cut.finish()).toMatchObject({ stopReason: "max_tokens", truncatedTools: ["run"], message: { content: [] } });
    expect(
      accumulate([start, toolStart, { type: "content_block_stop", index: 0 }, stop("tool_use"), { type: "message_stop" }]).finish()
        .truncatedTools,
    ).toBeUndefined();
  });
});
