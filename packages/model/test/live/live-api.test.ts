import { sendableMessages, type Message } from "@hatloop/context";
import { ModelError, type ModelRequest } from "@hatloop/core";
import { describe, expect, it } from "vitest";
import { AnthropicModel } from "../../src/anthropic/anthropic-model.js";
import { toCreateParams } from "../../src/anthropic/request-params.js";
import { contextWindowOf, costOf } from "../../src/pricing.js";
import { requestProblems } from "../../src/request-rules/validate-request.js";
import { resolveReply, sseEvents } from "../../src/testing/fake-events.js";
import { fakeContentOf, readReference } from "../conformance/reference.js";
import { streamShape } from "../conformance/shape.js";

// Opt-in: runs only with ANTHROPIC_API_KEY set (CI stays offline), against the real Messages API,
// so that neither the fake server nor the request rules can drift from the real thing unnoticed.
// A few cents at most: a small model, short prompts; the oversized prompt is refused before any
// tokens are billed. HATLOOP_LIVE_MODEL picks another model.

const key = process.env.ANTHROPIC_API_KEY;
const liveModel = process.env.HATLOOP_LIVE_MODEL ?? "claude-haiku-4-5";
const baseURL = (process.env.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com").replace(/\/$/, "");
// Anthropic's documented test string that makes the streaming classifier refuse.
const REFUSAL_TRIGGER = "ANTHROPIC_MAGIC_STRING_TRIGGER_REFUSAL_1FAEFB6177B4672DEE07F9D3AFC62588CCD2631EDCF22E8CCC1FB35B501C9C86";
const tools = [
  {
    name: "read_file",
    description: "Read a file of the repository",
    inputSchema: { type: "object" as const, properties: { path: { type: "string" } }, required: ["path"] },
  },
];

function ask(messages: Message[], overrides: Partial<ModelRequest> = {}): ModelRequest {
  const request = {
    model: liveModel,
    system: ["You are a terse assistant in a test. Follow instructions exactly."],
    messages: sendableMessages(messages),
    tools,
    maxTokens: 256,
    ...overrides,
  };
  // Whatever we send, our rules must accept: a live 400 would mean the rules are too lax.
  expect(requestProblems(toCreateParams(request))).toEqual([]);
  return request;
}

describe.skipIf(!key)("the real Messages API (live, opt-in)", () => {
  const model = new AnthropicModel({ retry: { maxAttempts: 3 } });

  it("does a tool round trip, with usage and cost as the API reports them", async () => {
    const history: Message[] = [{ role: "user", content: "Call read_file with path README.md, nothing else." }];
    const first = await model.complete(ask(history));
    expect(first.stopReason).toBe("tool_use");
    const use = (first.message.content as Array<{ type: string; id?: string }>).find((b) => b.type === "tool_use")!;
    history.push(first.message, {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: use.id!, content: "# Demo\nThe answer is 42." }],
    });
    const second = await model.complete(ask(history));
    expect(second.stopReason).toBe("end_turn");
    for (const r of [first, second]) {
      expect(r.usage.inputTokens + r.usage.cacheReadTokens + r.usage.cacheWriteTokens).toBeGreaterThan(0);
      expect(r.costUsd).toBeCloseTo(costOf(liveModel, r.usage), 12);
    }
  });

  it("streams what our fake streams for the same answer", async () => {
    const params = { ...toCreateParams(ask([{ role: "user", content: "Call read_file with path a.txt." }])), stream: true };
    const res = await fetch(`${baseURL}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": key!, "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify(params),
    });
    expect(res.status).toBe(200);
    const lines = (await res.text())
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => l.slice(6));
    const ref = readReference(lines);
    const content = fakeContentOf(ref);
    const reply = { content, stopReason: ref.stopReason ?? undefined, model: ref.model };
    const ours = sseEvents(
      reply,
      resolveReply(reply, { method: "POST", path: "/v1/messages", headers: {}, body: { model: ref.model, messages: [] } }, 1),
    ).map((e) => e.data);
    const real = streamShape(lines.map((l) => JSON.parse(l) as unknown));
    // Fields the real API may add later fail here first: then the fake is brought up to date.
    expect(streamShape(ours)).toEqual(real);
  });

  it("refuses on Anthropic's test string with stop_reason refusal", async () => {
    const refused = await model.complete(ask([{ role: "user", content: REFUSAL_TRIGGER }], { tools: [] }));
    expect(refused.stopReason).toBe("refusal");
    expect(refused.refusal).toBeDefined();
  });

  it("rejects a whitespace-only text block and a prompt over the window in the words our rules and parser use", async () => {
    const blank = await model
      .complete({
        ...ask([{ role: "user", content: "hi" }]),
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "hi" },
              { type: "text", text: "\n\n" },
            ],
          },
        ],
      })
      .catch((e: unknown) => e);
    expect(blank).toMatchObject({ status: 400, message: expect.stringContaining("text content blocks must contain non-whitespace text") });
    const window = contextWindowOf(liveModel);
    const huge = "word ".repeat(Math.ceil(window * 1.3)); // over the window; refused before anything is billed
    const tooLong = await model.complete(ask([{ role: "user", content: huge }], { tools: [] })).catch((e: unknown) => e);
    expect(tooLong).toBeInstanceOf(ModelError);
    expect((tooLong as ModelError).overflow?.promptTokens).toBeGreaterThan(window);
  });
});
