import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ModelError } from "@hatloop/core";
import { afterEach, describe, expect, it } from "vitest";
import { AnthropicModel } from "../../src/anthropic/anthropic-model.js";
import { collect, fastRetry, request } from "../../src/test-support/fixtures.js";
import { startFakeAnthropic, type FakeAnthropic, type FakeReply } from "../../src/testing/index.js";
import { sseBody } from "./recordings.js";

// The API's error answers (conformance/error-bodies.json: the documented shapes, as public reports
// show them received), served byte for byte: each is retried or fails as the API documents, and a
// prompt too long is read as the measurement it is.

interface ErrorBody {
  id: string;
  status: number;
  headers?: Record<string, string>;
  body?: string;
  stream?: string[];
  streamError?: string;
  after: "retry" | "fail";
  overflow?: { promptTokens: number | null; maxTokens: number | null };
  waitMs?: number;
}

const file = join(dirname(fileURLToPath(import.meta.url)), "../../conformance/error-bodies.json");
const bodies = (JSON.parse(readFileSync(file, "utf8")) as { bodies: ErrorBody[] }).bodies;

function served(entry: ErrorBody): FakeReply {
  if (entry.stream)
    return { raw: { body: `${sseBody({ name: "error", lines: entry.stream })}event: error\ndata: ${entry.streamError}\n\n` } };
  return { raw: { status: entry.status, headers: entry.headers, body: entry.body! } };
}

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("the API's error answers", () => {
  it("cover every documented status and an error event mid-stream", () => {
    expect(new Set(bodies.map((b) => b.status))).toEqual(new Set([200, 400, 401, 403, 404, 413, 429, 500, 504, 529]));
  });

  for (const entry of bodies) {
    it(`${entry.id}: ${entry.after === "retry" ? "retried, then the next answer is used" : "fails at once with its status"}`, async () => {
      fake = await startFakeAnthropic({ replies: [served(entry), { content: "Recovered." }] });
      const retry = fastRetry();
      const model = new AnthropicModel({ apiKey: "sk-test", baseURL: fake.url, retry });
      const seen = collect();
      const outcome = await model.complete(request(), seen.onEvent).catch((e: unknown) => e);
      if (entry.after === "retry") {
        expect(outcome).toMatchObject({ stopReason: "end_turn", message: { content: [{ type: "text", text: "Recovered." }] } });
        expect(seen.events.filter((e) => e.type === "retry")).toHaveLength(1);
        if (entry.waitMs !== undefined) expect(retry.waits).toEqual([entry.waitMs]);
        // Text from the cut attempt is void: the final message holds only the retry's.
        expect(fake.messageRequests()).toHaveLength(2);
        return;
      }
      expect(outcome).toBeInstanceOf(ModelError);
      const error = outcome as ModelError;
      expect(error.status).toBe(entry.status);
      expect(error.overflow).toEqual(entry.overflow ?? null);
      expect(error.message).not.toContain("\n");
      expect(fake.messageRequests()).toHaveLength(1);
    });
  }
});
