import { ModelError, type ModelStreamEvent } from "@hatloop/core";
import { describe, expect, it } from "vitest";
import { ApiFailure } from "./api-failure.js";
import { backoffDelay, DEFAULT_RETRY_OPTIONS, type RetryOptions, withRetries } from "./with-retries.js";

function options(overrides: Partial<RetryOptions> = {}): RetryOptions & { waits: number[] } {
  const waits: number[] = [];
  return { ...DEFAULT_RETRY_OPTIONS, random: () => 0, sleep: async (ms) => void waits.push(ms), waits, ...overrides };
}

describe("backoffDelay", () => {
  it("doubles per attempt, caps at maxDelayMs, and jitters within the upper half", () => {
    const base = { baseDelayMs: 100, maxDelayMs: 1_000 };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, { ...base, random: () => 0 }))).toEqual([50, 100, 200, 400, 500]);
    expect(backoffDelay(3, { ...base, random: () => 0.999 })).toBe(400);
  });
});

describe("withRetries", () => {
  it("caps a server-requested wait at maxRetryAfterMs", async () => {
    const opts = options({ maxRetryAfterMs: 5_000 });
    let calls = 0;
    const result = await withRetries(
      async () => {
        // A 503, not a 429: a 429 asking for longer than the cap is a usage limit (usage-limit.test.ts).
        if (calls++ === 0) throw new ApiFailure("service unavailable", 503, true, 3_600_000);
        return "ok";
      },
      opts,
      undefined,
    );
    expect(result).toBe("ok");
    expect(opts.waits).toEqual([5_000]);
  });

  it("turns an unexpected error into a ModelError without retrying", async () => {
    const events: ModelStreamEvent[] = [];
    const error = await withRetries(
      async () => {
        throw new Error("credentials\nmissing");
      },
      options(),
      undefined,
      (e) => events.push(e),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ message: "credentials missing", status: null, aborted: false });
    expect(events).toEqual([]);
  });

  it("stops waiting as soon as the signal aborts, even if the sleep ignores it", async () => {
    const controller = new AbortController();
    // A wait that never ends by itself, aborted once it has begun.
    const abortedWhileWaiting = (): Promise<void> => {
      controller.abort();
      return new Promise(() => {});
    };
    const pending = withRetries(
      async () => {
        throw new ApiFailure("overloaded", 529, true);
      },
      options({ sleep: abortedWhileWaiting }),
      controller.signal,
    );
    await expect(pending).rejects.toMatchObject({ aborted: true });
  });
});
