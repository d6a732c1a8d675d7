import { ModelError, type ModelStreamEvent } from "@hatloop/core";
import { ApiFailure } from "./api-failure.js";
import { usageLimitOf } from "./usage-limit.js";

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
  /** Attempts in all, the first one included. */
  maxAttempts: number;
  /** First backoff delay; doubles per attempt, with jitter, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * Cap on a server-requested wait, so a far-off reset time cannot hold a retry indefinitely; a 429
   * asking for longer is a usage limit, which the loop waits out instead (usage-limit.ts).
   */
  maxRetryAfterMs: number;
  /** Injected by tests; the wait is abandoned on abort whether or not it honours the signal. */
  sleep: Sleep;
  /** Source of jitter in [0, 1). */
  random: () => number;
  /** The clock a usage limit's reset is reckoned from. */
  now: () => number;
}

export const DEFAULT_RETRY_OPTIONS: RetryOptions = {
  maxAttempts: 6,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  maxRetryAfterMs: 10 * 60_000,
  sleep: timerSleep,
  random: Math.random,
  now: Date.now,
};

export function timerSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Exponential backoff with "equal jitter": half the delay fixed, half random, so waits never collapse to 0. */
export function backoffDelay(attempt: number, options: Pick<RetryOptions, "baseDelayMs" | "maxDelayMs" | "random">): number {
  const exp = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exp / 2 + (exp / 2) * options.random());
}

export function abortedError(): ModelError {
  return new ModelError("model request aborted", null, true);
}

/**
 * Runs `attempt` until it succeeds, reporting every wait as a `retry` event. An ApiFailure that is
 * not retriable, or the last one, becomes a ModelError, and so does a usage limit, at once (with its
 * reset time, for the loop); an abort (also while waiting) becomes an aborted ModelError at once.
 */
export async function withRetries<T>(
  attempt: (n: number) => Promise<T>,
  options: RetryOptions,
  signal: AbortSignal | undefined,
  onEvent?: (event: ModelStreamEvent) => void,
): Promise<T> {
  for (let n = 1; ; n++) {
    if (signal?.aborted) throw abortedError();
    try {
      return await attempt(n);
    } catch (error) {
      if (signal?.aborted) throw abortedError();
      if (error instanceof ModelError) throw error;
      if (!(error instanceof ApiFailure)) throw new ModelError(oneLine(messageOf(error)), null);
      // A usage limit lasts hours: retrying within minutes cannot help. The loop waits for its reset (or stops).
      const usageLimit = usageLimitOf(error, options.maxRetryAfterMs, options.now());
      if (usageLimit) throw new ModelError(error.message, error.status, false, null, usageLimit);
      if (!error.retriable) throw new ModelError(error.message, error.status, false, error.overflow);
      if (n >= options.maxAttempts) {
        throw new ModelError(`${error.message} (gave up after ${n} attempts)`, error.status);
      }
      const waitMs = error.retryAfterMs !== null ? Math.min(error.retryAfterMs, options.maxRetryAfterMs) : backoffDelay(n, options);
      onEvent?.({ type: "retry", attempt: n, waitMs, status: error.status, reason: error.message });
      await sleepUnlessAborted(waitMs, options.sleep, signal);
    }
  }
}

/** Sleeps, but throws an aborted ModelError as soon as the signal fires. */
export async function sleepUnlessAborted(ms: number, sleep: Sleep, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return sleep(ms);
  // An abort that already happened fires no event, so check before listening.
  if (signal.aborted) throw abortedError();
  let onAbort = (): void => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortedError());
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([sleep(ms, signal), aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by a callback or another task while this one awaited; TypeScript keeps the narrowing from before
  if (signal.aborted) throw abortedError();
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
