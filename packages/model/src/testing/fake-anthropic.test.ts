import { afterEach, describe, expect, it } from "vitest";
import { type FakeAnthropic, fakeError, startFakeAnthropic } from "./index.js";

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${fake?.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

const body = { model: "claude-haiku-4-5", max_tokens: 100, messages: [{ role: "user", content: "hi" }] };

describe("fake Anthropic server", () => {
  it("frames SSE like the API: message_start, ping, blocks with split deltas, message_delta, message_stop", async () => {
    fake = await startFakeAnthropic({
      replies: [
        {
          content: [
            { type: "text", text: "hello world" },
            { type: "tool_use", name: "run", input: { cmd: "ls -la" } },
          ],
          chunkSize: 5,
        },
      ],
    });
    const text = await (await post("/v1/messages", { ...body, stream: true })).text();
    const names = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(names).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta", // the empty first fragment the API sends
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(text).toContain('"stop_reason":"tool_use"');
    expect(text).toContain('"id":"toolu_fake_1_1"');
    expect(text).toContain('"partial_json":"{\\"cmd"');
  });

  it("answers non-streaming requests with a whole message", async () => {
    fake = await startFakeAnthropic({
      replies: [
        { content: [{ type: "tool_use", name: "git_status", id: "toolu_x" }], usage: { cache_read_input_tokens: 7, input_tokens: 3 } },
      ],
    });
    const message = await (await post("/v1/messages", body)).json();
    expect(message).toMatchObject({
      type: "message",
      role: "assistant",
      model: "claude-haiku-4-5",
      content: [{ type: "tool_use", id: "toolu_x", name: "git_status", input: {} }],
      stop_reason: "tool_use",
      usage: { input_tokens: 3, cache_read_input_tokens: 7, cache_creation_input_tokens: 0 },
    });
  });

  it("sends HTTP errors with the API's body and headers, and answers from functions of the request", async () => {
    fake = await startFakeAnthropic({
      replies: [
        fakeError(429, { headers: { "retry-after": "3" } }),
        (req) => ({ content: `you said ${JSON.stringify(req.body.messages[0]?.content)}` }),
      ],
    });
    const limited = await post("/v1/messages", body);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect(await limited.json()).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
    const answered = (await (await post("/v1/messages", body)).json()) as { content: unknown };
    expect(answered.content).toEqual([{ type: "text", text: 'you said "hi"' }]);
    const exhausted = await post("/v1/messages", body);
    expect(exhausted.status).toBe(400);
    expect(fake.requests.map((r) => r.path)).toEqual(["/v1/messages", "/v1/messages", "/v1/messages"]);
  });

  it("counts tokens and records the request", async () => {
    fake = await startFakeAnthropic({ replies: [] });
    const response = await post("/v1/messages/count_tokens", { model: "m", messages: [{ role: "user", content: "x".repeat(400) }] });
    const counted = (await response.json()) as { input_tokens: number };
    expect(counted.input_tokens).toBeGreaterThan(100);
    expect(fake.requests[0]).toMatchObject({ method: "POST", path: "/v1/messages/count_tokens" });
    expect(fake.messageRequests()).toEqual([]);
  });
});
