import { describe, expect, it } from "vitest";
import type { Provider } from "@hatloop/core";
import { costOf } from "../../src/pricing.js";
import { isRegionalEndpoint } from "../../src/providers/cloud-model-ids.js";
import { createProviderModel } from "../../src/providers/provider-model.js";

// Opt-in, like live-api.test.ts: each cloud runs only when its usual environment is set (CI stays
// offline), so the fakes of Bedrock's and Vertex's wire formats cannot drift unnoticed. One small
// model, two short calls. HATLOOP_LIVE_BEDROCK_MODEL / HATLOOP_LIVE_VERTEX_MODEL pick others.

const env = process.env;
const clouds: Array<{ provider: Provider; model: string; enabled: boolean; region: string }> = [
  {
    provider: "bedrock",
    model: env.HATLOOP_LIVE_BEDROCK_MODEL ?? "us.anthropic.claude-haiku-4-5-20251001-v1:0",
    enabled: Boolean(env.AWS_REGION && (env.AWS_ACCESS_KEY_ID || env.AWS_PROFILE || env.AWS_BEARER_TOKEN_BEDROCK)),
    region: env.AWS_REGION ?? "",
  },
  {
    provider: "vertex",
    model: env.HATLOOP_LIVE_VERTEX_MODEL ?? "claude-haiku-4-5@20251001",
    enabled: Boolean(env.CLOUD_ML_REGION && env.ANTHROPIC_VERTEX_PROJECT_ID),
    region: env.CLOUD_ML_REGION ?? "",
  },
];

const tools = [
  {
    name: "read_file",
    description: "Read a file of the repository",
    inputSchema: { type: "object" as const, properties: { path: { type: "string" } }, required: ["path"] },
  },
];

describe.each(clouds)("$provider (live, opt-in)", ({ provider, model: id, enabled, region }) => {
  it.skipIf(!enabled)("does a tool round trip with cached system and tools, usage and cost as the cloud reports them", async () => {
    const model = await createProviderModel({ provider, model: id, retry: { maxAttempts: 3 } });
    const system = ["You are a terse assistant in a test. Follow instructions exactly.", "Padding for the cache. ".repeat(1000)];
    const ask = { model: id, system, tools, maxTokens: 256 };
    const first = await model.complete({
      ...ask,
      messages: [{ role: "user", content: "Call read_file with path README.md, nothing else." }],
    });
    expect(first.stopReason).toBe("tool_use");
    const use = (first.message.content as Array<{ type: string; id?: string }>).find((b) => b.type === "tool_use")!;
    const second = await model.complete({
      ...ask,
      messages: [
        { role: "user", content: "Call read_file with path README.md, nothing else." },
        first.message,
        { role: "user", content: [{ type: "tool_result", tool_use_id: use.id!, content: "# Demo\nThe answer is 42." }] },
      ],
    });
    expect(second.stopReason).toBe("end_turn");
    // The second call reads what the first wrote to the cache (system and tools past the minimum size).
    expect(first.usage.cacheWriteTokens + first.usage.cacheReadTokens).toBeGreaterThan(0);
    expect(second.usage.cacheReadTokens).toBeGreaterThan(0);
    const regional = isRegionalEndpoint(provider, id, region);
    for (const r of [first, second]) expect(r.costUsd).toBeCloseTo(costOf(id, r.usage, { regional }), 12);
  });
});
