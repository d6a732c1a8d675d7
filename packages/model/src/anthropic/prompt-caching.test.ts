import type { Message } from "@hatloop/context";
import type { ToolSpec } from "@hatloop/core";
import type { MessageParam, TextBlockParam, Tool } from "@anthropic-ai/sdk/resources/messages";
import { afterEach, describe, expect, it, vi } from "vitest";
import { request } from "../test-support/fixtures.js";
import { type FakeAnthropic, startFakeAnthropic } from "../testing/index.js";
import { AnthropicModel } from "./anthropic-model.js";

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake?.close();
  fake = undefined;
});

const tools: ToolSpec[] = [
  { name: "read_file", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
  { name: "run", description: "Run a command", inputSchema: { type: "object", properties: { cmd: { type: "string" } } } },
];

function conversation(): Message[] {
  return [
    { role: "user", content: "Make the auth test deterministic." },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Let me look." },
        { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.ts" } },
      ],
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "export const a = 1;" }] },
  ];
}

function breakpoints(body: { system?: unknown; tools?: unknown; messages: MessageParam[] }): number {
  const blocks = [
    ...((body.system as TextBlockParam[] | undefined) ?? []),
    ...((body.tools as Tool[] | undefined) ?? []),
    ...body.messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content)),
  ];
  return blocks.filter((b) => "cache_control" in b && b.cache_control).length;
}

describe("prompt-cache breakpoints in the request sent", () => {
  it("marks the last system block, the last tool and the last user message, without mutating the caller's messages", async () => {
    fake = await startFakeAnthropic({ replies: [{ content: "ok" }] });
    const model = new AnthropicModel({ apiKey: "sk-test", baseURL: fake.url });
    const messages = conversation();
    const before = structuredClone(messages);
    await model.complete(request({ system: ["stable rules", "hat instructions"], tools, messages }));

    const body = fake.messageRequests()[0]?.body;
    if (!body) throw new Error("no request recorded");
    expect(body.system).toEqual([
      { type: "text", text: "stable rules" },
      { type: "text", text: "hat instructions", cache_control: { type: "ephemeral" } },
    ]);
    expect((body.tools as Tool[]).map((t) => t.cache_control)).toEqual([undefined, { type: "ephemeral" }]);
    expect(body.messages[0]).toEqual({ role: "user", content: "Make the auth test deterministic." });
    expect(body.messages[2]?.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_1", content: "export const a = 1;", cache_control: { type: "ephemeral" } },
    ]);
    expect(breakpoints(body)).toBe(3);
    expect(messages).toEqual(before);
  });

  it("asks every breakpoint for an hour when the request's TTL is 1h, and prices those writes at 2x input", async () => {
    fake = await startFakeAnthropic({ replies: [{ content: "ok", usage: { input_tokens: 0, cache_creation_input_tokens: 1_000_000 } }] });
    const model = new AnthropicModel({ apiKey: "sk-test", baseURL: fake.url });
    const response = await model.complete(
      request({ system: ["rules"], tools, messages: conversation(), cacheTtl: "1h", model: "claude-sonnet-4-5" }),
    );
    const body = fake.messageRequests()[0]?.body;
    if (!body) throw new Error("no request recorded");
    const controls = [
      ...((body.system as TextBlockParam[]) ?? []),
      ...((body.tools as Tool[]) ?? []),
      ...body.messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content)),
    ].flatMap((b) => ("cache_control" in b && b.cache_control ? [b.cache_control] : []));
    expect(controls).toEqual([1, 2, 3].map(() => ({ type: "ephemeral", ttl: "1h" })));
    // Sonnet: $3 input, so a million 1-hour cache writes cost $6 (5-minute ones: $3.75).
    expect(response.costUsd).toBeCloseTo(6 + (response.usage.outputTokens * 15) / 1e6, 6);
  });

  it("never sends more than four breakpoints, keeping the caller's newest ones", async () => {
    fake = await startFakeAnthropic({ replies: [{ content: "ok" }] });
    const model = new AnthropicModel({ apiKey: "sk-test", baseURL: fake.url });
    const marked = (text: string): Message => ({ role: "user", content: [{ type: "text", text, cache_control: { type: "ephemeral" } }] });
    const reply: Message = { role: "assistant", content: "noted" };
    const messages = [marked("one"), reply, marked("two"), reply, marked("three"), reply, { role: "user" as const, content: "now" }];
    await model.complete(request({ system: ["sys"], tools, messages }));

    const body = fake.messageRequests()[0]?.body;
    if (!body) throw new Error("no request recorded");
    expect(breakpoints(body)).toBe(4);
    const cached = body.messages.map(
      (m) => typeof m.content !== "string" && m.content.some((b) => "cache_control" in b && b.cache_control),
    );
    expect(cached).toEqual([false, false, false, false, true, false, true]);
  });

  it("takes the API key and base URL from the environment and sends the SDK's anthropic-version", async () => {
    fake = await startFakeAnthropic({ replies: [{ content: "ok" }] });
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-from-env");
    vi.stubEnv("ANTHROPIC_AUTH_TOKEN", undefined);
    vi.stubEnv("ANTHROPIC_BASE_URL", fake.url);
    const response = await new AnthropicModel().complete(request());
    expect(response.message.content).toEqual([{ type: "text", text: "ok" }]);
    const headers = fake.messageRequests()[0]?.headers;
    // SDK 1.x sends API keys as a bearer token.
    expect(headers?.authorization).toBe("Bearer sk-from-env");
    expect(headers?.["anthropic-version"]).toBe("2026-10-21");
    expect(fake.messageRequests()[0]?.body.stream).toBe(true);
  });
});
