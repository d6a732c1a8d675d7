import type { ContextOverflow, UsageLimit } from "@hatloop/core";

// One failed attempt at a model request, already classified. Both models throw it from an attempt
// so that withRetries() decides, in one place, whether to wait and try again.

export class ApiFailure extends Error {
  /** Set when the request was too big for the model (see overflowOf). */
  readonly overflow: ContextOverflow | null;

  constructor(
    message: string,
    /** HTTP status, or the status an in-stream error type stands for; null for transport faults. */
    readonly status: number | null,
    readonly retriable: boolean,
    /** How long the server asked us to wait, if it said. */
    readonly retryAfterMs: number | null = null,
    /** The response said the account's unified usage limit was rejected (see usage-limit.ts). */
    readonly usageLimit: UsageLimit | null = null,
  ) {
    super(message);
    this.overflow = overflowOf(status, message);
  }
}

// The API's words for a prompt over the model's window: "prompt is too long: 215000 tokens > 200000
// maximum" (M is the window); older models: "input length and `max_tokens` exceed context limit:
// 196003 + 8192 > 200000" (the window is not short, the prompt plus the output reserve is). 413
// (request_too_large) is a body over the byte limit and says no sizes.
const PROMPT_TOO_LONG = /prompt is too long:\s*(\d+)\s*tokens\s*>\s*(\d+)\s*maximum/i;
const INPUT_AND_OUTPUT = /input length and `?max_tokens`? exceed context limit:\s*(\d+)\s*\+\s*\d+\s*>\s*\d+/i;

function overflowOf(status: number | null, message: string): ContextOverflow | null {
  if (status === 413 || /request_too_large/.test(message)) return { promptTokens: null, maxTokens: null };
  if (status !== 400 && status !== null) return null;
  const tooLong = PROMPT_TOO_LONG.exec(message);
  if (tooLong) return { promptTokens: Number(tooLong[1]), maxTokens: Number(tooLong[2]) };
  const withOutput = INPUT_AND_OUTPUT.exec(message);
  return withOutput ? { promptTokens: Number(withOutput[1]), maxTokens: null } : null;
}

/** Statuses worth retrying: rate limits, server errors, gateway faults, overload. */
export const RETRIABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);

// In-stream `error` events carry a type but no status; these are the statuses the API uses for them.
const STATUS_OF_ERROR_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

// Amazon Bedrock's exceptions mid-stream, which its SDK turns into `error` events typed by name.
const STATUS_OF_BEDROCK_EXCEPTION: Record<string, number> = {
  validationException: 400,
  accessDeniedException: 403,
  throttlingException: 429,
  internalServerException: 500,
  modelStreamErrorException: 500,
  serviceUnavailableException: 503,
  modelTimeoutException: 504,
};

export function statusOfErrorType(type: string | null | undefined): number | null {
  return type ? (STATUS_OF_ERROR_TYPE[type] ?? STATUS_OF_BEDROCK_EXCEPTION[type] ?? null) : null;
}

/** The error type the API sends with a status (api_error for unlisted ones). */
export function errorTypeOfStatus(status: number): string {
  if (status === 504) return "api_error";
  const entry = Object.entries(STATUS_OF_ERROR_TYPE).find(([, s]) => s === status);
  return entry?.[0] ?? "api_error";
}

export function isRetriableStatus(status: number | null): boolean {
  return status !== null && RETRIABLE_STATUSES.has(status);
}
