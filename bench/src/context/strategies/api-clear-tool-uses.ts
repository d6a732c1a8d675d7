import { blocksOf, estimateTokens, type ContentBlock, type Message } from "@hatloop/context";
import { tailHandoff } from "./tail-handoff.js";
import type { Strategy } from "./types.js";

// The Messages API's context editing, `clear_tool_uses_20250919`, applied as the server applies it:
// the client sends the whole history every time; when the prompt exceeds `trigger` input tokens,
// the oldest tool results are replaced by a placeholder until only the last `keep` tool uses keep
// theirs (with `clearToolInputs`, the cleared calls' inputs go too); if that would clear fewer than
// `clearAtLeast` tokens, nothing is cleared. Nothing is kept between requests: each is edited from
// the full history (docs: "your client maintains the full, unmodified conversation history"), so
// the cleared boundary moves with every new tool use and the cache is rewritten from there.
// Defaults as documented: trigger 100,000, keep 3, clear_at_least none, inputs kept.

export interface ClearToolUsesOptions {
  trigger?: number;
  keep?: number;
  clearAtLeast?: number;
  clearToolInputs?: boolean;
}

const PLACEHOLDER = "[tool result cleared by context editing]";

export function apiClearToolUses(options: ClearToolUsesOptions = {}): Strategy {
  const { trigger = 100_000, keep = 3, clearAtLeast = 0, clearToolInputs = false } = options;
  const changed = [
    trigger !== 100_000 ? `trigger=${trigger / 1000}k` : "",
    keep !== 3 ? `keep=${keep}` : "",
    clearAtLeast ? `atLeast=${clearAtLeast / 1000}k` : "",
    clearToolInputs ? "inputs" : "",
  ].filter(Boolean);
  return {
    name: `api-clear-tool-uses${changed.length ? `[${changed.join(",")}]` : ""}`,
    summary: `Messages API context editing clear_tool_uses_20250919 (trigger ${trigger}, keep ${keep}${clearAtLeast ? `, clear_at_least ${clearAtLeast}` : ""}${clearToolInputs ? ", clear_tool_inputs" : ""})`,
    start(ctx) {
      const history: Message[] = [];
      const edited = new WeakMap<Message, Map<string, Message>>();
      let clearings = 0;
      let context: Message[] = [];
      const view = (): Message[] => {
        const full = estimateTokens(history, { system: [ctx.system] });
        if (full <= trigger) return history;
        const ids = history.flatMap((m) =>
          m.role === "assistant" ? blocksOf(m).flatMap((b) => (b.type === "tool_use" ? [b.id] : [])) : [],
        );
        const cleared = new Set(ids.slice(0, Math.max(0, ids.length - keep)));
        if (cleared.size === 0) return history;
        const out = history.map((m) => clearIn(m, cleared, clearToolInputs, edited));
        if (full - estimateTokens(out, { system: [ctx.system] }) < clearAtLeast) return history;
        clearings++;
        return out;
      };
      return {
        async next(appended) {
          history.push(...appended);
          context = view();
          return context;
        },
        async handoff(appended) {
          history.push(...appended);
          return tailHandoff(history, view());
        },
        stats: () => ({ clearedRequests: clearings }),
      };
    },
  };
}

/** The message with the given tool uses cleared; the same object for the same cleared ids. */
function clearIn(message: Message, cleared: ReadonlySet<string>, inputs: boolean, memo: WeakMap<Message, Map<string, Message>>): Message {
  const blocks = blocksOf(message);
  const hit = (b: ContentBlock) =>
    (b.type === "tool_result" && cleared.has(b.tool_use_id)) || (inputs && b.type === "tool_use" && cleared.has(b.id));
  const mine = blocks.filter(hit);
  if (mine.length === 0) return message;
  const key = mine.map((b) => (b.type === "tool_result" ? b.tool_use_id : b.type === "tool_use" ? b.id : "")).join(",");
  const byKey = memo.get(message) ?? memo.set(message, new Map()).get(message)!;
  let out = byKey.get(key);
  if (!out) {
    const content = blocks.map((b): ContentBlock => {
      if (!hit(b)) return b;
      if (b.type === "tool_result")
        return { type: "tool_result", tool_use_id: b.tool_use_id, content: PLACEHOLDER, ...(b.is_error ? { is_error: true } : {}) };
      return b.type === "tool_use" ? { ...b, input: {} } : b;
    });
    out = { ...message, content };
    byKey.set(key, out);
  }
  return out;
}
