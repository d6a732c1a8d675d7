import type { UsageLimit } from "@hatloop/core";
import type { HeaderSource } from "./retry-after.js";

// A usage limit is not a rate limit. A subscription's allowance (its 5-hour or weekly window) or an
// organisation's spend limit lasts hours or days: retrying it ten times over ten minutes only ends
// the session. The API says so in one of three ways, each recognised here:
// - a 429 whose unified rate-limit status is "rejected" (`anthropic-ratelimit-unified-status`), with
//   the window's reset in `anthropic-ratelimit-unified-reset` (Unix seconds);
// - a 429 that asks for a wait longer than any rate limit would (retry-after, or an exhausted limit's
//   reset, beyond maxRetryAfterMs);
// - an error message naming a usage limit ("You have reached your specified API usage limits. You
//   will regain access on 2026-12-01 at 00:00 UTC."), whatever its status.

/** What a failed attempt said, as far as a usage limit goes. */
interface LimitClues {
  status: number | null;
  message: string;
  /** The wait the response asked for (retry-after, a rate limit's reset). */
  retryAfterMs: number | null;
  /** Set from the response headers by classify-error: the unified limit was rejected, resetting then. */
  usageLimit: UsageLimit | null;
}

/** The unified (subscription) limit, when the response says it was rejected; null otherwise. */
export function unifiedLimitOf(headers: HeaderSource | null | undefined, now = Date.now()): UsageLimit | null {
  if (headers?.get("anthropic-ratelimit-unified-status") !== "rejected") return null;
  return { resetAt: resetTime(headers.get("anthropic-ratelimit-unified-reset"), now) };
}

/** The usage limit a failed attempt hit, or null for any other failure (a rate limit included). */
export function usageLimitOf(clues: LimitClues, maxRetryAfterMs: number, now = Date.now()): UsageLimit | null {
  const fromMessage = NAMES_USAGE_LIMIT.test(clues.message);
  const farWait = clues.status === 429 && clues.retryAfterMs !== null && clues.retryAfterMs > maxRetryAfterMs;
  if (!clues.usageLimit && !fromMessage && !farWait) return null;
  const resetAt = clues.usageLimit?.resetAt ?? regainedAt(clues.message) ?? (clues.retryAfterMs !== null ? now + clues.retryAfterMs : null);
  return { resetAt };
}

const NAMES_USAGE_LIMIT = /usage limit/i;

/** "... regain access on 2026-12-01 at 00:00 UTC" (the organisation spend limit's words). */
function regainedAt(message: string): number | null {
  const match = /regain access on (\d{4}-\d{2}-\d{2})(?: at (\d{1,2}:\d{2}))?\s*(UTC|Z)?/i.exec(message);
  if (!match) return null;
  const at = Date.parse(`${match[1]}T${(match[2] ?? "00:00").padStart(5, "0")}:00Z`);
  return Number.isNaN(at) ? null : at;
}

/** Unix seconds (the API's form), milliseconds, or an ISO date; null if none of them. */
function resetTime(value: string | null, now: number): number | null {
  if (value === null || value.trim() === "") return null;
  const n = Number(value);
  if (Number.isFinite(n) && n > 0) {
    // Seconds since 1970 are ~1.8e9 now; milliseconds ~1.8e12. A small number is seconds from now.
    if (n > 1e11) return n;
    if (n > 1e8) return n * 1000;
    return now + n * 1000;
  }
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : date;
}
