import { afterEach, describe, expect, it } from "vitest";
import { fastRetry, request } from "../test-support/fixtures.js";
import { type FakeAnthropic, startFakeAnthropic } from "../testing/index.js";
import { AnthropicModel } from "./anthropic-model.js";

// Models with adaptive thinking (Sonnet 5.x) return thinking blocks, also between tool calls; a
// tool-use turn must send them back exactly as received, signature intact.

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

describe("AnthropicModel with thinking blocks", () => {
  it("keeps thinking and redacted thinking verbatim and sends them back unchanged", async () => {
    fake = await startFakeAnthropic({
      replies: [
        {
          content: [
            { type: "thinking", thinking: "The flaky test depends on wall-clock time.", signature: "sig-abc123==" },
            { type: "redacted_thinking", data: "ENCRYPTED==" },
            { type: "tool_use", name: "read_file", input: { path: "src/clock.ts" } },
          ],
          chunkSize: 5,
        },
        { content: "Done." },
      ],
    });
    const model = new AnthropicModel({ apiKey: "test", baseURL: fake.url, retry: fastRetry() });
    // A history with tool calls must come with the tool definitions (the API's rule, which the fake applies).
    const tools = [{ name: "read_file", description: "read a file", inputSchema: { type: "object" as const } }];
    const first = await model.complete(request({ model: "claude-sonnet-5-5", tools }));
    expect(first.message.content).toEqual([
      { type: "thinking", thinking: "The flaky test depends on wall-clock time.", signature: "sig-abc123==" },
      { type: "redacted_thinking", data: "ENCRYPTED==" },
      { type: "tool_use", id: expect.any(String), name: "read_file", input: { path: "src/clock.ts" } },
    ]);
    const toolId = (first.message.content as Array<{ type: string; id?: string }>)[2]!.id!;
    await model.complete(
      request({
        model: "claude-sonnet-5-5",
        tools,
        messages: [
          { role: "user", content: "Fix the flaky test." },
          first.message,
          { role: "user", content: [{ type: "tool_result", tool_use_id: toolId, content: "export const now = Date.now;" }] },
        ],
      }),
    );
    const sent = fake.messageRequests()[1]!.body.messages[1]!.content as unknown as Array<Record<string, unknown>>;
    expect(sent[0]).toEqual({ type: "thinking", thinking: "The flaky test depends on wall-clock time.", signature: "sig-abc123==" });
    expect(sent[1]).toEqual({ type: "redacted_thinking", data: "ENCRYPTED==" });
  });
});
