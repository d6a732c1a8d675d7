import { APIConnectionError, APIConnectionTimeoutError, APIError } from "@anthropic-ai/sdk";
import { ApiFailure, isRetriableStatus, statusOfErrorType } from "../retry/api-failure.js";
import { retryAfterMs } from "../retry/retry-after.js";
import { unifiedLimitOf } from "../retry/usage-limit.js";
import { messageOf, oneLine } from "../retry/with-retries.js";

// SDK errors → ApiFailure. `stage` tells whether the error came while opening the request or while
// reading the stream: a transport error before the response is a failed connection, after it a
// stream cut mid-way; both are retried (the whole request again). A failed connection names the
// base URL, once, with the root cause (the SDK's own words are only "Connection error.").

export function toApiFailure(error: unknown, stage: "request" | "stream", baseURL: string): ApiFailure {
  if (error instanceof ApiFailure) return error;
  if (error instanceof APIConnectionError) {
    const timedOut = error instanceof APIConnectionTimeoutError ? "timed out; " : "";
    return new ApiFailure(oneLine(`cannot reach the API at ${baseURL}: ${timedOut}${causeOf(error)}`), null, true);
  }
  if (error instanceof APIError) {
    // A mid-stream `event: error` arrives as an APIError without a status, typed by its body.
    const type = error.type ?? null;
    const status = typeof error.status === "number" ? error.status : statusOfErrorType(type);
    const detail = error.apiMessage ?? error.message;
    const where = typeof error.status === "number" ? "" : " mid-stream";
    const label = `Anthropic API error${status !== null ? ` ${status}` : ""}${type ? ` ${type}` : ""}${where}`;
    const headers = error.headers as Headers | undefined;
    const retriable = isRetriableStatus(status) || headers?.get("x-should-retry") === "true";
    const wait = retriable ? retryAfterMs(headers) : null;
    return new ApiFailure(oneLine(`${label}: ${detail}`), status, retriable, wait, unifiedLimitOf(headers));
  }
  if (stage === "stream") return new ApiFailure(oneLine(`stream cut mid-way: ${causeOf(error)}`), null, true);
  return new ApiFailure(oneLine(messageOf(error)), null, false);
}

/** The messages down an error's cause chain, generic SDK wording left out: "fetch failed: connect ECONNREFUSED ...". */
function causeOf(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 5; e = e instanceof Error ? e.cause : undefined, depth++) {
    const message = messageOf(e);
    if (message && !GENERIC.has(message) && !parts.includes(message)) parts.push(message);
  }
  return parts.join(": ") || messageOf(error);
}

const GENERIC = new Set(["Connection error.", "Request timed out."]);
