import type { ModelRequest, ModelStreamEvent } from "@hatloop/core";
import type { RetryOptions } from "../retry/with-retries.js";

export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: "claude-haiku-4-5",
    system: ["You are a careful engineer."],
    messages: [{ role: "user", content: "Fix the flaky test." }],
    tools: [],
    maxTokens: 1024,
    ...overrides,
  };
}

/** Retry options for tests: tiny, deterministic waits recorded instead of slept. */
export function fastRetry(overrides: Partial<RetryOptions> = {}): Partial<RetryOptions> & { waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    maxAttempts: 4,
    baseDelayMs: 4,
    maxDelayMs: 20,
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...overrides,
  };
}

export function collect(): { events: ModelStreamEvent[]; onEvent: (e: ModelStreamEvent) => void; text: () => string } {
  const events: ModelStreamEvent[] = [];
  return {
    events,
    onEvent: (e) => events.push(e),
    text: () => events.map((e) => (e.type === "text_delta" ? e.text : "")).join(""),
  };
}
