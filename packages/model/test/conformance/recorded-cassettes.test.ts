import { sendableMessages, type ContentBlock, type Message } from "@hatloop/context";
import { afterEach, describe, expect, it } from "vitest";
import { AnthropicModel } from "../../src/anthropic/anthropic-model.js";
import { costOf } from "../../src/pricing.js";
import { fastRetry, request } from "../../src/test-support/fixtures.js";
import { startFakeAnthropic, type FakeAnthropic } from "../../src/testing/index.js";
import { cassettes, cassetteStreams } from "./recordings.js";
import { listPrice } from "./reference.js";

// The cassettes pydantic-ai recorded against api.anthropic.com (committed, MIT): the only real
// recordings we have of extended thinking and of non-zero prompt-cache usage. A thinking block must
// go back to the API byte for byte (its signature covers it); cache reads and writes must be priced
// as the API bills them.

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

// Committed, so nothing to fetch: this file runs alone too.
const thinkingStream = (): ReturnType<typeof cassetteStreams>[number] =>
  cassetteStreams().find((s) => s.raw?.includes('"signature_delta"'))!;

describe("the committed cassettes", () => {
  it("are the files their SOURCE.json pins, byte for byte", () => {
    const all = cassettes();
    expect(all.length).toBeGreaterThanOrEqual(3);
    for (const c of all) expect(c.sha256, c.name).toBe(c.expectedSha256);
  });

  it("a recorded thinking block goes back to the API unchanged, and a changed one is refused", async () => {
    const stream = thinkingStream();
    fake = await startFakeAnthropic({ replies: [{ raw: { body: stream.raw! } }, { content: "next" }, { content: "next" }] });
    const model = new AnthropicModel({ apiKey: "sk-test", baseURL: fake.url, retry: fastRetry({ maxAttempts: 1 }) });
    const answer = await model.complete(request({ model: "claude-sonnet-4-20250514" }));
    const blocks = answer.message.content as ContentBlock[];
    const thinking = blocks.find((b) => b.type === "thinking");
    expect(thinking).toMatchObject({ signature: expect.stringMatching(/^E/) as unknown });

    const history = (reply: Message): Message[] => [
      { role: "user", content: "How do I cross the street?" },
      reply,
      { role: "user", content: "And at night?" },
    ];
    await expect(
      model.complete(request({ model: "claude-sonnet-4-20250514", messages: sendableMessages(history(answer.message)) })),
    ).resolves.toMatchObject({
      stopReason: "end_turn",
    });
    const altered: Message = {
      role: "assistant",
      content: blocks.map((b) => (b.type === "thinking" ? { ...b, thinking: `${b.thinking} ` } : b)),
    };
    const refused = await model
      .complete(request({ model: "claude-sonnet-4-20250514", messages: history(altered) }))
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, message: expect.stringContaining("signature") as unknown });
  });

  it("non-zero cache reads and writes, as recorded, are priced at list prices to the cent", () => {
    const cached = cassettes().find((c) => c.interactions.some((i) => JSON.stringify(i.parsed ?? "").includes("cache_read_input_tokens")))!;
    const priced = cached.interactions.map((i) => {
      const body = i.parsed as { model: string; usage: Record<string, number> };
      const usage = {
        inputTokens: body.usage.input_tokens!,
        outputTokens: body.usage.output_tokens!,
        cacheReadTokens: body.usage.cache_read_input_tokens!,
        cacheWriteTokens: body.usage.cache_creation_input_tokens!,
      };
      return { usage, ours: costOf(body.model, usage), list: listPrice(body.model, usage) };
    });
    expect(priced.some((p) => p.usage.cacheReadTokens > 0)).toBe(true);
    expect(priced.some((p) => p.usage.cacheWriteTokens > 0)).toBe(true);
    for (const p of priced) {
      expect(p.ours).toBeCloseTo(p.list, 10);
      expect(Math.round(p.ours * 100)).toBe(Math.round(p.list * 100));
    }
  });
});
