import { describe, expect, it } from "vitest";
import { retryAfterMs } from "./retry-after.js";

const now = Date.parse("2026-11-01T12:00:00Z");

describe("retryAfterMs", () => {
  it("prefers retry-after-ms, then retry-after seconds, then an HTTP date", () => {
    expect(retryAfterMs(new Headers({ "retry-after-ms": "250", "retry-after": "9" }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ "retry-after": "1.5" }), now)).toBe(1500);
    expect(retryAfterMs(new Headers({ "retry-after": "Sun, 01 Nov 2026 12:00:30 GMT" }), now)).toBe(30_000);
  });

  it("falls back to the reset time of an exhausted rate limit", () => {
    const headers = new Headers({
      "anthropic-ratelimit-requests-remaining": "12",
      "anthropic-ratelimit-requests-reset": "2026-11-01T12:05:00Z",
      "anthropic-ratelimit-output-tokens-remaining": "0",
      "anthropic-ratelimit-output-tokens-reset": "2026-11-01T12:00:20Z",
    });
    expect(retryAfterMs(headers, now)).toBe(20_000);
  });

  it("returns null without usable headers and never a negative wait", () => {
    expect(retryAfterMs(new Headers(), now)).toBeNull();
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }), now)).toBeNull();
    expect(retryAfterMs(new Headers({ "retry-after": "Sun, 01 Nov 2026 11:00:00 GMT" }), now)).toBe(0);
  });
});
