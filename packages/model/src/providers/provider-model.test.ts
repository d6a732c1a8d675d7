import { afterEach, describe, expect, it } from "vitest";
import type { ClientOptions as VertexOptions } from "@anthropic-ai/vertex-sdk";
import { costOf } from "../pricing.js";
import { collect, fastRetry, request } from "../test-support/fixtures.js";
import { fakeError, startFakeBedrock, startFakeVertex, type FakeCloud } from "../testing/index.js";
import { ProviderSetupError } from "./cloud-settings.js";
import { createProviderModel } from "./provider-model.js";

// The cloud SDKs against local fakes of their endpoints' wire formats: Bedrock's event-stream
// framing and SigV4 signing, Vertex's streamRawPredict URL and OAuth token.

const BEDROCK_MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const staticKeys = { providerChainResolver: async () => async () => ({ accessKeyId: "AKIDFAKE", secretAccessKey: "fake-secret" }) };
const token = "ya29.fake-token";
// An AuthClient as the Vertex SDK uses one: headers for each request, a project it may know.
const authClient = {
  getRequestHeaders: async () => new Headers({ authorization: `Bearer ${token}` }),
  projectId: null,
} as unknown as VertexOptions["authClient"];

let fake: FakeCloud | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const cachedReply = {
  content: [
    { type: "text" as const, text: "Reading it." },
    { type: "tool_use" as const, name: "read_file", input: { path: "README.md" } },
  ],
  usage: { input_tokens: 120, output_tokens: 30, cache_read_input_tokens: 4000, cache_creation_input_tokens: 900 },
};

describe("Bedrock through AnthropicBedrock", () => {
  const env = (url: string) => ({ AWS_REGION: "us-east-1", ANTHROPIC_BEDROCK_BASE_URL: url });

  it("streams a tool call over event-stream framing, signed with SigV4, with cache usage and regional prices", async () => {
    fake = await startFakeBedrock({ replies: [cachedReply] });
    const model = await createProviderModel({ provider: "bedrock", model: BEDROCK_MODEL, env: env(fake.url), bedrock: staticKeys });
    const stream = collect();
    const response = await model.complete(request({ model: BEDROCK_MODEL }), stream.onEvent);
    expect(stream.text()).toBe("Reading it.");
    expect(response.stopReason).toBe("tool_use");
    expect(response.message.content).toContainEqual(
      expect.objectContaining({ type: "tool_use", name: "read_file", input: { path: "README.md" } }),
    );
    expect(response.usage).toEqual({ inputTokens: 120, outputTokens: 30, cacheReadTokens: 4000, cacheWriteTokens: 900 });
    // A geography profile ("us.") is a regional endpoint: 10% over the list price.
    expect(response.costUsd).toBeCloseTo(costOf(BEDROCK_MODEL, response.usage) * 1.1, 12);
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe(`/model/${BEDROCK_MODEL}/invoke-with-response-stream`);
    expect(sent.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDFAKE\/\d{8}\/us-east-1\/bedrock\/aws4_request/);
    // The version Bedrock's InvokeModel documents for Claude, not the Messages API's header value.
    expect(sent.body.anthropic_version).toBe("bedrock-2023-05-31");
    expect(sent.body).not.toHaveProperty("model");
    // Prompt caching is asked for as on the Anthropic API.
    expect(JSON.stringify(fake.inner.messageRequests()[0]!.body)).toContain('"cache_control"');
  });

  it("prices a global inference profile at the list price", async () => {
    fake = await startFakeBedrock({ replies: [cachedReply] });
    const id = "global.anthropic.claude-sonnet-4-5-20250929-v1:0";
    const model = await createProviderModel({ provider: "bedrock", model: id, env: env(fake.url), bedrock: staticKeys });
    const response = await model.complete(request({ model: id }));
    expect(response.costUsd).toBeCloseTo(costOf(id, response.usage), 12);
  });

  it("waits out a ThrottlingException and a serviceUnavailableException mid-stream, then completes", async () => {
    fake = await startFakeBedrock({
      replies: [fakeError(429), { content: "partial", streamError: { afterEvents: 2, type: "overloaded_error" } }, { content: "done" }],
    });
    const retry = fastRetry();
    const model = await createProviderModel({ provider: "bedrock", model: BEDROCK_MODEL, env: env(fake.url), bedrock: staticKeys, retry });
    const stream = collect();
    const response = await model.complete(request({ model: BEDROCK_MODEL }), stream.onEvent);
    expect(response.message.content).toEqual([{ type: "text", text: "done" }]);
    const waits = stream.events.filter((e) => e.type === "retry");
    expect(waits.map((e) => (e.type === "retry" ? e.reason : ""))).toEqual([
      expect.stringMatching(/429.*Too many|429/),
      expect.stringMatching(/serviceUnavailableException/),
    ]);
  });

  it("refuses another anthropic_version with a 400, as Bedrock does", async () => {
    fake = await startFakeBedrock({ replies: [{ content: "never sent" }] });
    const answer = await fetch(`${fake.url}/model/${BEDROCK_MODEL}/invoke`, {
      method: "POST",
      headers: { authorization: "Bearer bedrock-api-key", "content-type": "application/json" },
      body: JSON.stringify({ anthropic_version: "2026-10-21", max_tokens: 1, messages: [{ role: "user", content: "." }] }),
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.get("x-amzn-errortype")).toMatch(/^ValidationException/);
    expect(((await answer.json()) as { message: string }).message).toMatch(/anthropic_version.*2026-10-21.*bedrock-2023-05-31/);
    expect(fake.inner.messageRequests()).toEqual([]);
  });

  it("sends a Bedrock API key as a bearer token instead of signing", async () => {
    fake = await startFakeBedrock({ replies: [{ content: "ok" }] });
    const model = await createProviderModel({
      provider: "bedrock",
      model: BEDROCK_MODEL,
      env: { ...env(fake.url), AWS_BEARER_TOKEN_BEDROCK: "bedrock-api-key" },
    });
    await model.complete(request({ model: BEDROCK_MODEL }));
    expect(fake.requests.at(-1)!.headers.authorization).toBe("Bearer bedrock-api-key");
  });

  it("says in one line that AWS credentials are missing, before any request", async () => {
    fake = await startFakeBedrock({ replies: [] });
    const noCredentials = {
      providerChainResolver: async () => async () => {
        throw new Error("Could not load credentials from any providers");
      },
    };
    const made = createProviderModel({ provider: "bedrock", model: BEDROCK_MODEL, env: env(fake.url), bedrock: noCredentials });
    await expect(made).rejects.toThrow(ProviderSetupError);
    await expect(made).rejects.toThrow(
      /^no AWS credentials for Bedrock \(Could not load credentials from any providers\); set AWS_PROFILE/,
    );
    expect(fake.requests).toEqual([]);
  });

  it("needs a region", async () => {
    await expect(createProviderModel({ provider: "bedrock", model: BEDROCK_MODEL, env: {} })).rejects.toThrow(/needs AWS_REGION/);
  });
});

describe("Vertex AI through AnthropicVertex", () => {
  const env = (url: string, region = "us-east5") => ({
    CLOUD_ML_REGION: region,
    ANTHROPIC_VERTEX_PROJECT_ID: "proj-1",
    ANTHROPIC_VERTEX_BASE_URL: url,
  });
  const id = "claude-sonnet-4-5@20250929";

  it("streams from streamRawPredict with the OAuth token, with cache usage and regional prices", async () => {
    fake = await startFakeVertex({ replies: [cachedReply], project: "proj-1", region: "us-east5", token });
    const model = await createProviderModel({ provider: "vertex", model: id, env: env(fake.url), vertex: { authClient } });
    const response = await model.complete(request({ model: id }));
    expect(response.stopReason).toBe("tool_use");
    expect(response.usage).toEqual({ inputTokens: 120, outputTokens: 30, cacheReadTokens: 4000, cacheWriteTokens: 900 });
    expect(response.costUsd).toBeCloseTo(costOf(id, response.usage) * 1.1, 12);
    expect(fake.requests.at(-1)!.path).toBe(`/v1/projects/proj-1/locations/us-east5/publishers/anthropic/models/${id}:streamRawPredict`);
    // The version Vertex AI's rawPredict/streamRawPredict documents for Claude.
    expect(fake.requests.at(-1)!.body.anthropic_version).toBe("vertex-2023-10-16");
  });

  it("refuses another anthropic_version with a 400, as Vertex AI does", async () => {
    fake = await startFakeVertex({ replies: [{ content: "never sent" }], project: "proj-1", region: "global", token });
    const answer = await fetch(`${fake.url}/projects/proj-1/locations/global/publishers/anthropic/models/${id}:rawPredict`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ anthropic_version: "2026-10-21", max_tokens: 1, messages: [{ role: "user", content: "." }] }),
    });
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as { error: { status: string; message: string } };
    expect(body.error.status).toBe("INVALID_ARGUMENT");
    expect(body.error.message).toMatch(/anthropic_version.*2026-10-21.*vertex-2023-10-16/);
    expect(fake.inner.messageRequests()).toEqual([]);
  });

  it("prices the global endpoint at the list price and retries Google's RESOURCE_EXHAUSTED", async () => {
    fake = await startFakeVertex({ replies: [fakeError(429), { content: "ok" }], project: "proj-1", region: "global", token });
    const retry = fastRetry();
    const model = await createProviderModel({ provider: "vertex", model: id, env: env(fake.url, "global"), vertex: { authClient }, retry });
    const response = await model.complete(request({ model: id }));
    expect(response.message.content).toEqual([{ type: "text", text: "ok" }]);
    expect(retry.waits).toHaveLength(1);
    expect(response.costUsd).toBeCloseTo(costOf(id, response.usage), 12);
  });

  it("says in one line that Google credentials are missing", async () => {
    const failing = {
      getRequestHeaders: async () => Promise.reject(new Error("Could not load the default credentials.")),
    } as unknown as VertexOptions["authClient"];
    const made = createProviderModel({ provider: "vertex", model: id, env: env("http://127.0.0.1:9/v1"), vertex: { authClient: failing } });
    await expect(made).rejects.toThrow(
      /^no Google credentials for Vertex AI \(Could not load the default credentials\.\); run gcloud auth/,
    );
  });

  it("needs a region and a project", async () => {
    await expect(createProviderModel({ provider: "vertex", model: id, env: {} })).rejects.toThrow(/needs CLOUD_ML_REGION/);
    await expect(createProviderModel({ provider: "vertex", model: id, env: { CLOUD_ML_REGION: "global" } })).rejects.toThrow(
      /needs ANTHROPIC_VERTEX_PROJECT_ID/,
    );
  });
});
