import type { CacheControl, ContentBlock, Message } from "@hatloop/context";

// Prompt-cache breakpoints on the conversation. The API allows at most four per request; the system
// prompt and the tool list take one each, and the last user message takes one so that the growing
// conversation prefix is written now and read back on the next iteration. Breakpoints the caller set
// on older messages are kept, newest first, while the budget lasts. Nothing the caller passed is
// mutated: changed messages and blocks are copies.

export const MAX_CACHE_BREAKPOINTS = 4;
const EPHEMERAL: CacheControl = { type: "ephemeral" };

/** The breakpoint for a TTL: the default 5 minutes, or an hour (written at 2x). */
export function cacheControl(ttl: CacheControl["ttl"] = "5m"): CacheControl {
  return ttl === "1h" ? { type: "ephemeral", ttl: "1h" } : EPHEMERAL;
}

type CacheableBlock = Exclude<ContentBlock, { type: "thinking" | "redacted_thinking" }>;

export function withConversationBreakpoint(messages: Message[], budget: number, control: CacheControl = EPHEMERAL): Message[] {
  const target = breakpointTarget(messages);
  let remaining = Math.max(0, budget - (target ? 1 : 0));
  const out: Message[] = new Array<Message>(messages.length);
  for (let m = messages.length - 1; m >= 0; m--) {
    const message = messages[m] as Message;
    if (typeof message.content === "string") {
      out[m] =
        target?.message === m ? { role: message.role, content: [marked({ type: "text", text: message.content }, control)] } : message;
      continue;
    }
    const blocks = [...message.content];
    for (let b = blocks.length - 1; b >= 0; b--) {
      const block = blocks[b] as ContentBlock;
      if (target?.message === m && target.block === b) blocks[b] = marked(block as CacheableBlock, control);
      else if (hasBreakpoint(block)) {
        if (remaining > 0) remaining--;
        else blocks[b] = unmarked(block);
      }
    }
    out[m] = { role: message.role, content: blocks };
  }
  return out;
}

/** The last non-empty, cacheable block of the last user message. */
function breakpointTarget(messages: Message[]): { message: number; block: number } | null {
  for (let m = messages.length - 1; m >= 0; m--) {
    const message = messages[m] as Message;
    if (message.role !== "user") continue;
    if (typeof message.content === "string") return message.content.trim() ? { message: m, block: 0 } : null;
    for (let b = message.content.length - 1; b >= 0; b--) {
      const block = message.content[b] as ContentBlock;
      // The API rejects cache_control on empty text blocks, and thinking blocks cannot carry one.
      if (block.type === "thinking" || block.type === "redacted_thinking" || (block.type === "text" && !block.text.trim())) continue;
      return { message: m, block: b };
    }
    return null;
  }
  return null;
}

function hasBreakpoint(block: ContentBlock): boolean {
  return block.type !== "thinking" && block.type !== "redacted_thinking" && block.cache_control !== undefined;
}

function marked(block: CacheableBlock, control: CacheControl): CacheableBlock {
  return { ...block, cache_control: control };
}

function unmarked(block: ContentBlock): ContentBlock {
  if (block.type === "thinking" || block.type === "redacted_thinking") return block;
  const { cache_control: _dropped, ...rest } = block;
  return rest;
}
