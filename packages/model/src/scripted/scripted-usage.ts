import type { ModelRequest, Usage } from "@hatloop/core";

// Usage for a scripted turn that does not state it: estimated at ~4 characters per token, with the
// prompt cache simulated the way the real client's breakpoints behave (system + tools, and the
// conversation up to the last user message), so gauges and cost in the demo move realistically.

const CHARS_PER_TOKEN = 4;
/** Below this many prompt tokens the API does not cache at all (Sonnet/Opus minimum). */
const MIN_CACHEABLE_TOKENS = 1024;

/** What a request looked like, to compare the next one against. */
export interface PromptShape {
  head: string;
  messages: string[];
}

export function promptShape(request: Omit<ModelRequest, "maxTokens">): PromptShape {
  return {
    head: JSON.stringify([request.system, request.tools]),
    messages: request.messages.map((m) => JSON.stringify(m)),
  };
}

function tokensOf(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

export function promptTokens(shape: PromptShape): number {
  return tokensOf(shape.head.length + shape.messages.reduce((n, m) => n + m.length, 0));
}

export function estimateUsage(shape: PromptShape, previous: PromptShape | null, outputChars: number): Usage {
  const total = promptTokens(shape);
  const outputTokens = Math.max(1, tokensOf(outputChars));
  if (total < MIN_CACHEABLE_TOKENS) return { inputTokens: total, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 };
  const read = Math.min(total, cachedPrefixTokens(shape, previous));
  return { inputTokens: 0, outputTokens, cacheReadTokens: read, cacheWriteTokens: total - read };
}

/** The previous request's cached prefix that this one still starts with. */
function cachedPrefixTokens(shape: PromptShape, previous: PromptShape | null): number {
  if (!previous || previous.head !== shape.head || promptTokens(previous) < MIN_CACHEABLE_TOKENS) return 0;
  const extendsPrevious = previous.messages.length <= shape.messages.length && previous.messages.every((m, i) => shape.messages[i] === m);
  // Either the whole previous conversation is a prefix (its last breakpoint hits), or only the
  // system-and-tools breakpoint still matches (e.g. after compaction rewrote the history).
  return extendsPrevious ? promptTokens(previous) : tokensOf(shape.head.length);
}
