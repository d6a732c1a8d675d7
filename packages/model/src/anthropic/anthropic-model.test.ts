import { ModelError } from "@hatloop/core";
import { afterEach, describe, expect, it } from "vitest";
import { collect, fastRetry, request } from "../test-support/fixtures.js";
import { type FakeAnthropic, type FakeReply, fakeError, startFakeAnthropic } from "../testing/index.js";
import type { RetryOptions } from "../retry/with-retries.js";
import { AnthropicModel } from "./anthropic-model.js";

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(
  replies: FakeReply[],
  retry: Partial<RetryOptions> = fastRetry(),
): Promise<{ model: AnthropicModel; server: FakeAnthropic }> {
  fake = await startFakeAnthropic({ replies });
  return { model: new AnthropicModel({ apiKey: "sk-test", baseURL: fake.url, retry }), server: fake };
}

describe("AnthropicModel streaming", () => {
  it("streams text as several deltas and returns the whole message", async () => {
    const text = "The flaky test depends on wall-clock time.";
    const { model } = await setup([{ content: text, chunkSize: 5 }]);
    const seen = collect();
    const response = await model.complete(request(), seen.onEvent);
    expect(seen.events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(3);
    expect(seen.text()).toBe(text);
    expect(response.message).toEqual({ role: "assistant", content: [{ type: "text", text }] });
    expect(response.stopReason).toBe("end_turn");
    expect(response.model).toBe("claude-haiku-4-5");
  });

  it("parses tool input JSON split across input_json_delta events", async () => {
    const input = { path: "src/auth/session.test.ts", range: [10, 42], note: 'quote " and unicode é' };
    const { model } = await setup([
      {
        content: [
          { type: "text", text: "Reading it." },
          { type: "tool_use", name: "read_file", input, id: "toolu_1" },
        ],
        chunkSize: 3,
      },
    ]);
    const seen = collect();
    const response = await model.complete(request(), seen.onEvent);
    expect(seen.events).toContainEqual({ type: "tool_use_start", id: "toolu_1", name: "read_file" });
    expect(response.message.content).toEqual([
      { type: "text", text: "Reading it." },
      { type: "tool_use", id: "toolu_1", name: "read_file", input },
    ]);
    expect(response.stopReason).toBe("tool_use");
  });

  it("returns parallel tool calls in order and treats an empty input as {}", async () => {
    const { model } = await setup([
      {
        content: [
          { type: "tool_use", name: "git_status", id: "toolu_a" },
          { type: "tool_use", name: "search", input: { query: "Date.now" }, id: "toolu_b" },
        ],
      },
    ]);
    const seen = collect();
    const response = await model.complete(request(), seen.onEvent);
    expect(seen.events.filter((e) => e.type === "tool_use_start").map((e) => (e.type === "tool_use_start" ? e.id : ""))).toEqual([
      "toolu_a",
      "toolu_b",
    ]);
    expect(response.message.content).toEqual([
      { type: "tool_use", id: "toolu_a", name: "git_status", input: {} },
      { type: "tool_use", id: "toolu_b", name: "search", input: { query: "Date.now" } },
    ]);
  });

  it("drops a tool_use whose JSON was cut by max_tokens and reports max_tokens", async () => {
    const { model } = await setup([
      {
        content: [
          { type: "text", text: "Writing the file now." },
          { type: "tool_use", name: "write_file", rawJson: '{"path": "src/a.ts", "content": "export con' },
        ],
        stopReason: "max_tokens",
      },
    ]);
    const response = await model.complete(request());
    expect(response.stopReason).toBe("max_tokens");
    expect(response.message.content).toEqual([{ type: "text", text: "Writing the file now." }]);
  });

  it("maps usage with cache tokens and prices it", async () => {
    const usage = { input_tokens: 1_000, output_tokens: 500, cache_read_input_tokens: 20_000, cache_creation_input_tokens: 3_000 };
    const { model } = await setup([{ content: "ok", usage }]);
    const response = await model.complete(request({ model: "claude-opus-4-5" }));
    expect(response.usage).toEqual({ inputTokens: 1_000, outputTokens: 500, cacheReadTokens: 20_000, cacheWriteTokens: 3_000 });
    // Opus 4.5 per million tokens: 1000×$5 + 500×$25 + 3000×$6.25 (write) + 20000×$0.50 (read)
    expect(response.costUsd).toBeCloseTo(0.04625, 10);
  });

  it("counts tokens through the count_tokens endpoint", async () => {
    fake = await startFakeAnthropic({ replies: [], countTokens: () => 4242 });
    const model = new AnthropicModel({ apiKey: "sk-test", baseURL: fake.url });
    await expect(model.countTokens(request())).resolves.toBe(4242);
    expect(fake.requests[0]?.path).toBe("/v1/messages/count_tokens");
    expect(fake.requests[0]?.body.max_tokens).toBeUndefined();
  });
});

describe("AnthropicModel retries", () => {
  it("honours retry-after on 429, reports the wait, then succeeds", async () => {
    const retry = fastRetry();
    const { model, server } = await setup([fakeError(429, { headers: { "retry-after": "2" } }), { content: "done" }], retry);
    const seen = collect();
    const response = await model.complete(request(), seen.onEvent);
    expect(retry.waits).toEqual([2000]);
    expect(seen.events).toContainEqual(expect.objectContaining({ type: "retry", attempt: 1, waitMs: 2000, status: 429 }));
    expect(response.message.content).toEqual([{ type: "text", text: "done" }]);
    expect(server.messageRequests()).toHaveLength(2);
  });

  it("really waits for retry-after-ms with the default sleep", async () => {
    const { model } = await setup([fakeError(429, { headers: { "retry-after-ms": "80" } }), { content: "done" }], {
      maxAttempts: 2,
    });
    const started = performance.now();
    await model.complete(request());
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
  });

  it.each([529, 500, 502, 503, 504])("retries HTTP %i with backoff, then succeeds", async (status) => {
    const retry = fastRetry();
    const { model } = await setup([fakeError(status), fakeError(status), { content: "recovered" }], retry);
    const seen = collect();
    const response = await model.complete(request(), seen.onEvent);
    expect(retry.waits).toEqual([3, 6]); // base 4 then 8, equal jitter at random() = 0.5
    expect(seen.events.filter((e) => e.type === "retry")).toEqual([
      expect.objectContaining({ attempt: 1, status }),
      expect.objectContaining({ attempt: 2, status }),
    ]);
    expect(response.message.content).toEqual([{ type: "text", text: "recovered" }]);
  });

  it.each([
    ["overloaded_error", 529],
    ["api_error", 500],
  ])("retries a %s that arrives mid-stream", async (type, status) => {
    const { model } = await setup([
      { content: "partial answer that will be void", streamError: { afterEvents: 4, type, message: "try later" } },
      { content: "second try" },
    ]);
    const seen = collect();
    const response = await model.complete(request(), seen.onEvent);
    expect(seen.events).toContainEqual(expect.objectContaining({ type: "retry", status }));
    expect(response.message.content).toEqual([{ type: "text", text: "second try" }]);
  });

  it("does not retry an invalid_request_error that arrives mid-stream", async () => {
    const { model, server } = await setup([
      { content: "partial", streamError: { afterEvents: 3, type: "invalid_request_error", message: "bad input" } },
      { content: "never" },
    ]);
    await expect(model.complete(request())).rejects.toMatchObject({ status: 400, message: expect.stringContaining("bad input") });
    expect(server.messageRequests()).toHaveLength(1);
  });

  it("treats a stalled stream as dropped and retries it", async () => {
    fake = await startFakeAnthropic({ replies: [{ content: "slow slow slow", chunkSize: 2, eventDelayMs: 400 }, { content: "fast" }] });
    const model = new AnthropicModel({ apiKey: "sk-test", baseURL: fake.url, retry: fastRetry(), streamIdleTimeoutMs: 80 });
    const seen = collect();
    const response = await model.complete(request(), seen.onEvent);
    expect(seen.events).toContainEqual(
      expect.objectContaining({ type: "retry", status: null, reason: expect.stringContaining("no stream event") }),
    );
    expect(response.message.content).toEqual([{ type: "text", text: "fast" }]);
  });

  it("retries when the server cannot be reached", async () => {
    fake = await startFakeAnthropic({ replies: [] });
    const url = fake.url;
    await fake.close();
    fake = undefined;
    const model = new AnthropicModel({ apiKey: "sk-test", baseURL: url, retry: fastRetry({ maxAttempts: 2 }) });
    const seen = collect();
    const error = await model.complete(request(), seen.onEvent).catch((e: unknown) => e);
    expect(seen.events).toEqual([
      expect.objectContaining({ type: "retry", status: null, reason: expect.stringContaining(`cannot reach the API at ${url}`) }),
    ]);
    const message = (error as Error).message;
    // The base URL once, the root cause (not the SDK's bare "Connection error."), the attempts.
    expect(message).toMatch(
      new RegExp(`^cannot reach the API at ${url.replace(/[.]/g, "\\.")}: fetch failed: .*ECONNREFUSED.* \\(gave up after 2 attempts\\)$`),
    );
    expect(message.split(url).length - 1).toBe(1);
    expect(message).not.toContain("Connection error.");
    expect(error).toMatchObject({ status: null });
  });

  it("retries the whole request after a mid-stream disconnect without duplicating text", async () => {
    const { model } = await setup([
      { content: "first attempt text that gets cut", chunkSize: 4, disconnectAfterEvents: 5 },
      { content: "clean answer" },
    ]);
    const seen = collect();
    const response = await model.complete(request(), seen.onEvent);
    const retryAt = seen.events.findIndex((e) => e.type === "retry");
    expect(retryAt).toBeGreaterThan(0);
    expect(seen.events[retryAt]).toMatchObject({ status: null });
    expect(response.message.content).toEqual([{ type: "text", text: "clean answer" }]);
  });

  it("gives up after maxAttempts with a ModelError carrying the status", async () => {
    const { model, server } = await setup([fakeError(529), fakeError(529), fakeError(529)], fastRetry({ maxAttempts: 3 }));
    const error = await model.complete(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status: 529, aborted: false });
    expect((error as ModelError).message).toContain("gave up after 3 attempts");
    expect(server.messageRequests()).toHaveLength(3);
  });

  it.each([400, 401, 403, 404, 413])("throws HTTP %i at once with status and API message on one line", async (status) => {
    const { model, server } = await setup([fakeError(status, { message: "messages.1: bad\nthing" }), { content: "never" }]);
    const seen = collect();
    const error = await model.complete(request(), seen.onEvent).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status });
    expect((error as ModelError).message).toMatch(new RegExp(`^Anthropic API error ${status} \\w+: messages\\.1: bad thing$`));
    expect(seen.events.some((e) => e.type === "retry")).toBe(false);
    expect(server.messageRequests()).toHaveLength(1);
  });
});

describe("AnthropicModel abort", () => {
  it("rejects with an aborted ModelError when aborted mid-stream, without waiting for the rest", async () => {
    // The whole stream would take 1,000 × 1 s, past the runner's ceiling: only a prompt answer passes.
    const { model } = await setup([{ content: "x".repeat(4_000), chunkSize: 4, eventDelayMs: 1_000 }]);
    const controller = new AbortController();
    let deltas = 0;
    const pending = model.complete(request({ signal: controller.signal }), (e) => {
      if (e.type === "text_delta" && deltas++ === 0) controller.abort();
    });
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ aborted: true });
    expect(deltas).toBeLessThan(1_000);
  });

  it("abandons a retry wait on abort", async () => {
    // An hour asked for, ten minutes waited (the cap), past the runner's ceiling: only abandoning it
    // passes. A 529: a 429 asking for an hour is a usage limit, which the loop waits out instead.
    const { model } = await setup([fakeError(529, { headers: { "retry-after": "3600" } })], { maxAttempts: 3 });
    const controller = new AbortController();
    const pending = model.complete(request({ signal: controller.signal }), (e) => {
      if (e.type === "retry") setTimeout(() => controller.abort(), 10);
    });
    await expect(pending).rejects.toMatchObject({ aborted: true });
  });
});

describe("AnthropicModel notices", () => {
  it("says an SDK deprecation warning once, as an event, instead of on the console at every request", async () => {
    const { model } = await setup([{ content: "one" }, { content: "two" }]);
    const warned: unknown[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => void warned.push(args);
    try {
      const seen = collect();
      await model.complete(request({ model: "claude-sonnet-4-5" }), seen.onEvent);
      await model.complete(request({ model: "claude-sonnet-4-5" }), seen.onEvent);
      const notices = seen.events.filter((e) => e.type === "notice");
      expect(notices).toEqual([
        {
          type: "notice",
          message: expect.stringMatching(/^The model 'claude-sonnet-4-5' is deprecated and will reach end-of-life on .* Please migrate/),
        },
      ]);
      expect(warned).toEqual([]);
    } finally {
      console.warn = original;
    }
  });
});
