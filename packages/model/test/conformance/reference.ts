// An independent reading of a recorded stream, written from the streaming documentation rather than
// from our client: text deltas concatenated per block, tool input JSON joined and parsed at the end,
// usage from message_start overlaid by every non-null field of message_delta (which is cumulative).

export interface Reference {
  model: string;
  stopReason: string | null;
  blocks: Array<{ type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown }>;
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
  /** Block types the stream carried that a plain client does not model (server tools, MCP, ...). */
  otherBlocks: string[];
}

type UsageFields = Record<string, number | null | undefined>;
interface Event {
  type: string;
  index: number;
  message: { model: string; usage: UsageFields };
  content_block: { type: string; text?: string; id?: string; name?: string };
  delta: { type?: string; text?: string; partial_json?: string; stop_reason?: string | null };
  usage: UsageFields;
}

export function readReference(lines: string[]): Reference {
  const ref: Reference = {
    model: "",
    stopReason: null,
    blocks: [],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    otherBlocks: [],
  };
  const open = new Map<number, { type: string; text: string; json: string; id: string; name: string }>();
  const order: number[] = [];
  const apply = (u: UsageFields): void => {
    if (u.input_tokens != null) ref.usage.inputTokens = u.input_tokens;
    if (u.output_tokens != null) ref.usage.outputTokens = u.output_tokens;
    if (u.cache_read_input_tokens != null) ref.usage.cacheReadTokens = u.cache_read_input_tokens;
    if (u.cache_creation_input_tokens != null) ref.usage.cacheWriteTokens = u.cache_creation_input_tokens;
  };
  for (const line of lines) {
    const e = JSON.parse(line) as Event;
    if (e.type === "message_start") {
      ref.model = e.message.model;
      apply(e.message.usage);
    } else if (e.type === "content_block_start") {
      const b = e.content_block;
      open.set(e.index, { type: b.type, text: b.text ?? "", json: "", id: b.id ?? "", name: b.name ?? "" });
      order.push(e.index);
    } else if (e.type === "content_block_delta") {
      const b = open.get(e.index)!;
      if (e.delta.type === "text_delta") b.text += e.delta.text ?? "";
      if (e.delta.type === "input_json_delta") b.json += e.delta.partial_json ?? "";
    } else if (e.type === "message_delta") {
      ref.stopReason = e.delta.stop_reason ?? ref.stopReason;
      apply(e.usage);
    }
  }
  for (const index of order) {
    const b = open.get(index)!;
    if (b.type === "text") ref.blocks.push({ type: "text", text: b.text });
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

/** Dollars at list prices: cache writes 1.25x input, cache reads 0.1x input. */
export function listPrice(model: string, u: Reference["usage"]): number {
  const entry = PRICES.find(([re]) => re.test(model));
  if (!entry) throw new Error(`no list price known for ${model}`);
  const [, input, output] = entry;
  return (
    (u.inputTokens * input + u.outputTokens * output + u.cacheWriteTokens * input * 1.25 + u.cacheReadTokens * input * 0.1) / 1_000_000
  );
}
