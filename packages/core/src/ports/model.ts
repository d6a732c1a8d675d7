import type { CacheTtl, Message, ToolUseBlock } from "@hatloop/context";
import type { Usage } from "../store/port.js";

// The model port: one streamed response per call. Implemented by @hatloop/model (the Anthropic
// client over the official SDK, and the scripted model). Transient failures (429/500/529, overload,
// a stream cut mid-way) are retried inside the implementation, which reports each wait as a
// `retry` event; what reaches the loop is either a whole response or a ModelError.

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the input object. */
  inputSchema: { type: "object"; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };
}

export interface ModelRequest {
  model: string;
  /** System prompt parts, in order. Stable parts first: the client puts a cache breakpoint after the last one. */
  system: string[];
  messages: Message[];
  tools: ToolSpec[];
  maxTokens: number;
  /** The prompt-cache TTL the breakpoints ask for (default 5m; 1h writes cost 2x and survive longer gaps). */
  cacheTtl?: CacheTtl;
  /** The one tool the answer must call (the API's tool_choice {type: "tool"}); unset: the model chooses. */
  toolChoice?: string;
  /** Who asks, when not the loop's turn: the grader of acceptance criteria (a scripted model plays its own queue for it). */
  purpose?: "grader";
  signal?: AbortSignal;
}

export const STOP_REASONS = [
  "end_turn",
  "tool_use",
  "max_tokens",
  "stop_sequence",
  "pause_turn",
  "refusal",
  "model_context_window_exceeded",
] as const;

export type StopReason = (typeof STOP_REASONS)[number];

export type ModelStreamEvent =
  | { type: "text_delta"; text: string }
  | { type: "tool_use_start"; id: string; name: string }
  /** The attempt failed and will be retried after waitMs; text streamed so far is void. */
  | { type: "retry"; attempt: number; waitMs: number; status: number | null; reason: string }
  /** Something the provider or its SDK wants the user to know (a deprecated model), said once. */
  | { type: "notice"; message: string };

/** Why the API refused to go on (stop_reason "refusal"), as its stop_details say. */
export interface RefusalDetails {
  category: string | null;
  explanation: string | null;
}

export interface ModelResponse {
  /** The assistant message: text and tool_use blocks, tool inputs parsed (empty input is {}). */
  message: Message & { role: "assistant" };
  stopReason: StopReason;
  usage: Usage;
  costUsd: number;
  model: string;
  /** With stop_reason "refusal": the API's stop_details, when it sent them. */
  refusal?: RefusalDetails;
  /** With stop_reason "max_tokens": tool calls whose input the output limit cut off (left out of `message`). */
  truncatedTools?: string[];
}

/**
 * The request did not fit: "prompt is too long: N tokens > M maximum" (400) or request_too_large
 * (413, a body over the size limit). N is the real size of what was sent: a measurement, not a fault.
 */
export interface ContextOverflow {
  promptTokens: number | null;
  maxTokens: number | null;
}

/**
 * The account's usage limit is reached (a subscription's allowance, an organisation's spend limit):
 * not a rate limit that passes in seconds, but one that lasts until `resetAt` (epoch ms; null when the
 * API did not say). The model does not retry it; the loop waits for the reset or stops (usage-limit.ts).
 */
export interface UsageLimit {
  resetAt: number | null;
}

export class ModelError extends Error {
  constructor(
    message: string,
    /** HTTP status, if the failure came from the API. */
    readonly status: number | null,
    /** Aborted by the caller (Ctrl-C, stop): not a failure of the model. */
    readonly aborted = false,
    /** The request was too big for the model: compact and try again. */
    readonly overflow: ContextOverflow | null = null,
    /** The account's usage limit: wait for its reset, or stop. */
    readonly usageLimit: UsageLimit | null = null,
  ) {
    super(message);
  }
}

export interface ModelPort {
  complete(request: ModelRequest, onEvent?: (event: ModelStreamEvent) => void): Promise<ModelResponse>;
  /** Exact input tokens of a request, when the provider can count them (used for calibration). */
  countTokens?(request: Omit<ModelRequest, "maxTokens">): Promise<number>;
  /** The most output tokens the model allows in one response, when known. */
  maxOutputTokens?(model: string): number | null;
}

export function toolUseBlocks(response: ModelResponse): ToolUseBlock[] {
  const content = response.message.content;
  return typeof content === "string" ? [] : content.filter((b): b is ToolUseBlock => b.type === "tool_use");
}
