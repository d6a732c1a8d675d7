import type { FakeContent } from "../../src/testing/index.js";

// An independent reading of a recorded stream, written from the streaming documentation rather than
// from our client: text deltas concatenated per block, tool input JSON joined and parsed at the end,
// usage from message_start overlaid by every non-null field of message_delta (which is cumulative).

export interface Reference {
  model: string;
  stopReason: string | null;
  blocks: Array<
    | { type: "text"; text: string }
    | { type: "tool_use"; id: string; name: string; input: unknown }
    | { type: "thinking"; thinking: string; signature: string }
    | { type: "redacted_thinking"; data: string }
  >;
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
  /** Block types the stream carried that a plain client does not model (server tools, MCP, ...). */
  otherBlocks: string[];
  /** usage.server_tool_use.web_search_requests: searches billed per request, not per token. */
  webSearchRequests: number;
}

/** The block types the reference reads (the others land in otherBlocks). */
export const READ_BLOCKS: ReadonlySet<string> = new Set(["text", "tool_use", "thinking", "redacted_thinking"]);

/** The reference's blocks as the fake's reply content, to stream the same answer ourselves. */
export function fakeContentOf(ref: Reference): FakeContent[] {
  return ref.blocks.map((b) => (b.type === "tool_use" ? { type: "tool_use", id: b.id, name: b.name, input: b.input } : b));
}

interface UsageFields {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  server_tool_use?: { web_search_requests?: number } | null;
}
interface Event {
  type: string;
  index: number;
  message: { model: string; usage: UsageFields };
  content_block: { type: string; text?: string; id?: string; name?: string; thinking?: string; signature?: string; data?: string };
  delta: { type?: string; text?: string; partial_json?: string; thinking?: string; signature?: string; stop_reason?: string | null };
  usage: UsageFields;
}

export function readReference(lines: string[]): Reference {
  const ref: Reference = {
    model: "",
    stopReason: null,
    blocks: [],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    otherBlocks: [],
    webSearchRequests: 0,
  };
  const open = new Map<number, { type: string; text: string; json: string; id: string; name: string; signature: string; data: string }>();
  const order: number[] = [];
  const apply = (u: UsageFields): void => {
    if (u.input_tokens != null) ref.usage.inputTokens = u.input_tokens;
    if (u.output_tokens != null) ref.usage.outputTokens = u.output_tokens;
    if (u.cache_read_input_tokens != null) ref.usage.cacheReadTokens = u.cache_read_input_tokens;
    if (u.cache_creation_input_tokens != null) ref.usage.cacheWriteTokens = u.cache_creation_input_tokens;
    if (u.server_tool_use?.web_search_requests != null) ref.webSearchRequests = u.server_tool_use.web_search_requests;
  };
  for (const line of lines) {
    const e = JSON.parse(line) as Event;
    if (e.type === "message_start") {
      ref.model = e.message.model;
      apply(e.message.usage);
    } else if (e.type === "content_block_start") {
      const b = e.content_block;
      open.set(e.index, {
        type: b.type,
        text: b.text ?? b.thinking ?? "",
        json: "",
        id: b.id ?? "",
        name: b.name ?? "",
        signature: b.signature ?? "",
        data: b.data ?? "",
      });
      order.push(e.index);
    } else if (e.type === "content_block_delta") {
      const b = open.get(e.index)!;
      if (e.delta.type === "text_delta") b.text += e.delta.text ?? "";
      if (e.delta.type === "input_json_delta") b.json += e.delta.partial_json ?? "";
      if (e.delta.type === "thinking_delta") b.text += e.delta.thinking ?? "";
      if (e.delta.type === "signature_delta") b.signature += e.delta.signature ?? "";
    } else if (e.type === "message_delta") {
      ref.stopReason = e.delta.stop_reason ?? ref.stopReason;
      apply(e.usage);
    }
  }
  for (const index of order) {
    const b = open.get(index)!;
    if (b.type === "text") ref.blocks.push({ type: "text", text: b.text });
    else if (b.type === "thinking") ref.blocks.push({ type: "thinking", thinking: b.text, signature: b.signature });
    else if (b.type === "redacted_thinking") ref.blocks.push({ type: "redacted_thinking", data: b.data });
    else if (b.type === "tool_use")
      ref.blocks.push({ type: "tool_use", id: b.id, name: b.name, input: b.json.trim() ? JSON.parse(b.json) : {} });
    else ref.otherBlocks.push(b.type);
  }
  return ref;
}

/** List prices per million tokens (input, output), from the models' pricing pages, for the models recorded. */
const PRICES: Array<[RegExp, number, number]> = [
  [/haiku-4-5/, 1, 5],
  [/sonnet-4-5|sonnet-4-2/, 3, 15],
  [/opus-4-5/, 5, 25],
];

/** Dollars at list prices: cache writes 1.25x input, cache reads 0.1x input, web search $10 per 1,000. */
export function listPrice(model: string, u: Reference["usage"], webSearchRequests = 0): number {
  const entry = PRICES.find(([re]) => re.test(model));
  if (!entry) throw new Error(`no list price known for ${model}`);
  const [, input, output] = entry;
  return (
    (u.inputTokens * input + u.outputTokens * output + u.cacheWriteTokens * input * 1.25 + u.cacheReadTokens * input * 0.1) / 1_000_000 +
    webSearchRequests * 0.01
  );
}
