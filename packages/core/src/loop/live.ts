import type { ContentBlock, Message } from "@hatloop/context";
import { estimateTokens } from "@hatloop/context";
import type { LiveEntry } from "./context-hook.js";
import type { LoopContext } from "./loop-context.js";
import { redactMessage } from "../context/redact-message.js";

/** Stores a message (append-only, before the next model call) and adds it to the live context. */
export async function appendLive(ctx: LoopContext, message: Message, kind: LiveEntry["kind"] = "conversation"): Promise<LiveEntry> {
  const entry: LiveEntry = { seq: null, message: redactMessage(message), kind };
  await storeEntries(ctx, [entry]);
  ctx.state.live.push(entry);
  return entry;
}

/** Gives unstored entries the next seqs and writes them, in one statement. */
export async function storeEntries(ctx: LoopContext, entries: LiveEntry[]): Promise<void> {
  const { state, deps } = ctx;
  const fresh = entries.filter((e) => e.seq === null);
  if (fresh.length === 0) return;
  for (const e of fresh) {
    e.seq = state.nextSeq++;
    e.message = redactMessage(e.message);
  }
  await deps.store.messages.append(
    state.session.id,
    fresh.map((e) => ({
      seq: e.seq!,
      iteration: state.iteration,
      hat: state.hat.name,
      kind: e.kind,
      message: e.message,
      tokenEstimate: estimateTokens([e.message]),
    })),
  );
}

/** An assistant message the API accepts back: never empty. */
export function nonEmptyAssistant(message: Message): Message {
  const content = typeof message.content === "string" ? message.content : message.content;
  const empty = typeof content === "string" ? !content.trim() : content.length === 0;
  return empty ? { role: "assistant", content: [{ type: "text", text: "(no response)" }] } : message;
}

export function textBlock(text: string): ContentBlock {
  return { type: "text", text };
}
