import type { MessageCreateParamsBase } from "@anthropic-ai/sdk/resources/messages";

// What the fake Messages API answers, reply by reply. Field names follow the API where they mirror
// it (usage) and are plain camelCase where they steer the fake (chunkSize, disconnectAfterEvents).

/** A request as the fake server received it. count_tokens bodies have no max_tokens. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: Omit<MessageCreateParamsBase, "max_tokens"> & { max_tokens?: number };
}

export type FakeContent =
  | { type: "text"; text: string }
  /** Streamed as thinking_delta chunks, then one signature_delta. */
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string }
  | {
      type: "tool_use";
      name: string;
      /** Omitted: only the empty input_json_delta the API streams for a tool without arguments. */
      input?: unknown;
      id?: string;
      /** Streamed instead of JSON.stringify(input), e.g. JSON cut short to mimic max_tokens. */
      rawJson?: string;
    };

export interface FakeUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export interface FakeMessageReply {
  /** A string is one text block. */
  content: string | FakeContent[];
  /** Defaults to tool_use when the content has a tool call, else end_turn. */
  stopReason?: string;
  /** Missing fields are estimated at ~4 characters per token (cache fields default to 0). */
  usage?: FakeUsage;
  /** Defaults to the requested model. */
  model?: string;
  /** Characters per text_delta / input_json_delta (default 8), so text and JSON arrive split. */
  chunkSize?: number;
  /** Wait between SSE events, in milliseconds. */
  eventDelayMs?: number;
  /** Destroy the socket after this many SSE events: a connection dropped mid-stream. */
  disconnectAfterEvents?: number;
  /** Send `event: error` after this many SSE events, then end the response (e.g. overloaded_error). */
  streamError?: { afterEvents: number; type: string; message?: string };
  /** With stopReason "refusal": the stop_details the API sends in message_delta. */
  stopDetails?: { category: string | null; explanation: string | null };
  headers?: Record<string, string>;
}

/** Bytes sent as they are: a recorded response replayed, or an error body as the API wrote it. */
export interface FakeRawReply {
  raw: {
    /** Default 200. */
    status?: number;
    /** Default content-type: text/event-stream for 200, application/json otherwise. */
    headers?: Record<string, string>;
    body: string;
  };
}

export interface FakeErrorReply {
  error: {
    status: number;
    /** Defaults to the API's type for the status: 429 rate_limit_error, 529 overloaded_error, ... */
    type?: string;
    message?: string;
    /** E.g. { "retry-after": "1" } or { "retry-after-ms": "20" }. */
    headers?: Record<string, string>;
  };
}

export type FakeReply = FakeMessageReply | FakeErrorReply | FakeRawReply;

export type FakeReplyFn = (request: RecordedRequest, index: number) => FakeReply | Promise<FakeReply>;

export function isErrorReply(reply: FakeReply): reply is FakeErrorReply {
  return "error" in reply;
}

export function isRawReply(reply: FakeReply): reply is FakeRawReply {
  return "raw" in reply;
}

/** Shorthand for an HTTP error reply. */
export function fakeError(status: number, options: Omit<FakeErrorReply["error"], "status"> = {}): FakeErrorReply {
  return { error: { status, ...options } };
}

export function estimateTokens(value: unknown): number {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? "");
  return Math.max(1, Math.ceil(text.length / 4));
}
