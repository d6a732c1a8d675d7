import { ModelError } from "@hatloop/core";
import { afterEach, describe, expect, it } from "vitest";
import { AnthropicModel } from "../anthropic/anthropic-model.js";
import { collect, fastRetry, request } from "../test-support/fixtures.js";
import { fakeError, startFakeAnthropic, type FakeAnthropic } from "../testing/index.js";
import { usageLimitOf } from "./usage-limit.js";
import { DEFAULT_RETRY_OPTIONS } from "./with-retries.js";

// A usage limit (a subscription's window, an organisation's spend limit) resets in hours: the model
// must hand it to the loop at once, with the reset time the API gave, instead of retrying it for
// ten minutes and failing.

const now = Date.parse("2026-11-27T22:48:00Z");
const TEN_MINUTES = DEFAULT_RETRY_OPTIONS.maxRetryAfterMs;
const clues = (overrides: Partial<Parameters<typeof usageLimitOf>[0]>) => ({
  status: 429,
  message: "Anthropic API error 429 rate_limit_error: Number of request tokens has exceeded your per-minute rate limit",
  retryAfterMs: 20_000,
  usageLimit: null,
  ...overrides,
});

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("usageLimitOf", () => {
  it("leaves an ordinary rate limit or overload to the retries", () => {
    expect(usageLimitOf(clues({}), TEN_MINUTES, now)).toBeNull();
    expect(usageLimitOf(clues({ status: 529, retryAfterMs: 3_600_000, message: "overloaded" }), TEN_MINUTES, now)).toBeNull();
  });

  it("takes a 429 that asks for a wait longer than any rate limit as a usage limit, resetting then", () => {
    const fourHours = 4 * 3_600_000 + 12 * 60_000;
    expect(usageLimitOf(clues({ retryAfterMs: fourHours }), TEN_MINUTES, now)).toEqual({ resetAt: now + fourHours });
  });

  it("reads the organisation spend limit's message and its date", () => {
    const message =
      "Anthropic API error 400 invalid_request_error: You have reached your specified API usage limits. You will regain access on 2026-12-01 at 00:00 UTC.";
    expect(usageLimitOf(clues({ status: 400, retryAfterMs: null, message }), TEN_MINUTES, now)).toEqual({
      resetAt: Date.parse("2026-12-01T00:00:00Z"),
    });
    // Named, but no time given anywhere: a usage limit whose reset is unknown.
    expect(usageLimitOf(clues({ retryAfterMs: null, message: "Claude usage limit reached" }), TEN_MINUTES, now)).toEqual({
      resetAt: null,
    });
  });
});

describe("a usage limit through the real client", () => {
  it("is handed over at once with the unified limit's reset, not retried", async () => {
    const reset = Math.floor(now / 1000) + 4 * 3600;
    fake = await startFakeAnthropic({
      replies: [
        fakeError(429, {
          message: "This request would exceed your account's rate limit. Please try again later.",
          headers: {
            "anthropic-ratelimit-unified-status": "rejected",
            "anthropic-ratelimit-unified-reset": String(reset),
            "anthropic-ratelimit-unified-representative-claim": "five_hour",
            "retry-after": "30",
          },
        }),
        { content: "never asked for" },
      ],
    });
    const retry = fastRetry();
    const model = new AnthropicModel({ apiKey: "sk-test", baseURL: fake.url, retry });
    const seen = collect();
    const error = await model.complete(request(), seen.onEvent).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).usageLimit).toEqual({ resetAt: reset * 1000 });
    expect((error as ModelError).message).toMatch(/^Anthropic API error 429 rate_limit_error: This request would exceed/);
    expect(fake.messageRequests()).toHaveLength(1);
    expect(seen.events.filter((e) => e.type === "retry")).toEqual([]);
    expect(retry.waits).toEqual([]);
  });

  it("is recognised from a retry-after hours away", async () => {
    fake = await startFakeAnthropic({ replies: [fakeError(429, { headers: { "retry-after": "14400" } }), { content: "never" }] });
    const model = new AnthropicModel({ apiKey: "sk-test", baseURL: fake.url, retry: fastRetry({ now: () => now }) });
    const error = (await model.complete(request()).catch((e: unknown) => e)) as ModelError;
    expect(error.usageLimit).toEqual({ resetAt: now + 14_400_000 });
    expect(fake.messageRequests()).toHaveLength(1);
  });
});
