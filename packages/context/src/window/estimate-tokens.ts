import type { ContentBlock, Message } from "../messages.js";

// A deterministic token estimate. Exact counts come from the API's usage (see token-accounting.ts);
// this estimate only has to cover what was appended since, and the fallback when there is no anchor.
// Unlike the reference loop, tool_use inputs are counted (a 20 kB write_file input is 20 kB of prompt).

export interface EstimateOptions {
  /** Characters per token for text and JSON (calibrate with calibrateCharsPerToken). Default 4. */
  charsPerToken?: number;
  /** Fixed cost of one image block. Default 1,600 (about a 1,200 × 1,200 image). */
  imageTokens?: number;
  /** Framing cost of each content block (type tags, ids). Default 3. */
  blockOverhead?: number;
  /** Framing cost of each message (role, separators). Default 4. */
  messageOverhead?: number;
  /** System prompt, counted when given (one string or its parts). */
  system?: string | readonly string[];
  /** Tool specs as sent to the API, counted as their JSON when given. */
  tools?: readonly unknown[];
}

export const DEFAULT_ESTIMATE = {
  charsPerToken: 4,
  imageTokens: 1_600,
  blockOverhead: 3,
  messageOverhead: 4,
} as const;

/** What an estimate is made of: characters (scaled by the ratio) and fixed tokens (overheads, images). */
export interface CostParts {
  chars: number;
  fixedTokens: number;
}

/** Estimated prompt tokens of messages (plus system prompt and tool specs when given in opts). */
export function estimateTokens(messages: readonly Message[], opts: EstimateOptions = {}): number {
  return partsToTokens(costParts(messages, opts), opts);
}

/** Estimated tokens of the system prompt and tool specs alone. */
export function estimatePromptOverhead(opts: EstimateOptions): number {
  return partsToTokens(costParts([], opts), opts);
}

function partsToTokens(parts: CostParts, opts: EstimateOptions = {}): number {
  const ratio = opts.charsPerToken ?? DEFAULT_ESTIMATE.charsPerToken;
  if (!(ratio > 0)) throw new RangeError(`charsPerToken must be > 0, got ${ratio}`);
  return Math.ceil(parts.chars / ratio) + parts.fixedTokens;
}

/** Characters and fixed tokens, summed over the whole prompt (one rounding, so the ratio is invertible). */
export function costParts(messages: readonly Message[], opts: EstimateOptions = {}): CostParts {
  const blockOverhead = opts.blockOverhead ?? DEFAULT_ESTIMATE.blockOverhead;
  const messageOverhead = opts.messageOverhead ?? DEFAULT_ESTIMATE.messageOverhead;
  const imageTokens = opts.imageTokens ?? DEFAULT_ESTIMATE.imageTokens;
  let chars = 0;
  let fixedTokens = 0;
  const add = (block: BlockCost): void => {
    chars += block.chars;
    fixedTokens += blockOverhead + block.images * imageTokens;
  };

  for (const message of messages) {
    fixedTokens += messageOverhead;
    if (typeof message.content === "string") add({ chars: message.content.length, images: 0 });
    else for (const block of message.content) add(blockCost(block));
  }
  const system = typeof opts.system === "string" ? [opts.system] : (opts.system ?? []);
  for (const part of system) add({ chars: part.length, images: 0 });
  for (const tool of opts.tools ?? []) add({ chars: jsonLength(tool), images: 0 });
  return { chars, fixedTokens };
}

interface BlockCost {
  chars: number;
  images: number;
}

function blockCost(block: ContentBlock): BlockCost {
  switch (block.type) {
    case "text":
      return { chars: block.text.length, images: 0 };
    case "thinking":
      return { chars: block.thinking.length, images: 0 };
    case "redacted_thinking":
      return { chars: block.data.length, images: 0 }; // opaque, but sent back in full
    case "image":
      return { chars: 0, images: 1 };
    case "tool_use":
      // Name plus the JSON the API receives; "{}" still costs something, never zero.
      return { chars: block.name.length + jsonLength(block.input), images: 0 };
    case "tool_result": {
      if (typeof block.content === "string") return { chars: block.content.length, images: 0 };
      let chars = 0;
      let images = 0;
      for (const part of block.content) {
        if (part.type === "text") chars += part.text.length;
        else images += 1;
      }
      return { chars, images };
    }
  }
}

function jsonLength(value: unknown): number {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify returns undefined for undefined, a function or a symbol, though lib.d.ts says string
  return (JSON.stringify(value ?? {}) ?? "").length;
}
