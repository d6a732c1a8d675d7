import { APIConnectionError, APIError } from "@anthropic-ai/sdk";
import { ApiFailure, isRetriableStatus, statusOfErrorType } from "../retry/api-failure.js";
import { retryAfterMs } from "../retry/retry-after.js";
import { messageOf, oneLine } from "../retry/with-retries.js";

// SDK errors → ApiFailure. `stage` tells whether the error came while opening the request or while
// reading the stream: a transport error before the response is a failed connection, after it a
// stream cut mid-way; both are retried (the whole request again).

export function toApiFailure(error: unknown, stage: "request" | "stream"): ApiFailure {
  if (error instanceof ApiFailure) return error;
  if (error instanceof APIConnectionError) {
    return new ApiFailure(oneLine(`connection error: ${causeOf(error)}`), null, true);
  }
  if (error instanceof APIError) {
    // A mid-stream `event: error` arrives as an APIError without a status, typed by its body.
    const type = error.type ?? null;
    const status = typeof error.status === "number" ? error.status : statusOfErrorType(type);
    const detail = error.apiMessage ?? error.message;
    const where = typeof error.status === "number" ? "" : " mid-stream";
    const label = `Anthropic API error${status !== null ? ` ${status}` : ""}${type ? ` ${type}` : ""}${where}`;
    const retriable = isRetriableStatus(status) || error.headers?.get("x-should-retry") === "true";
    return new ApiFailure(oneLine(`${label}: ${detail}`), status, retriable, retriable ? retryAfterMs(error.headers) : null);
  }
  if (stage === "stream") return new ApiFailure(oneLine(`stream cut mid-way: ${causeOf(error)}`), null, true);
  return new ApiFailure(oneLine(messageOf(error)), null, false);
}

function causeOf(error: unknown): string {
  const message = messageOf(error);
  const cause = error instanceof Error && error.cause !== undefined ? messageOf(error.cause) : "";
  return cause && cause !== message ? `${message} (${cause})` : message;
}
