import type { ContentBlock, Message } from "@hatloop/context";
import { estimateTokens } from "@hatloop/context";
import type { MessageKind } from "../store/port.js";
import { apply } from "./apply.js";
import type { LiveEntry } from "./context-hook.js";
import type { LoopContext } from "./loop-context.js";

// Messages enter the store and the live context here. The store redacts them (redactingStore, the
// one place secrets are taken out) and gives back what it stored; the live context keeps that, so
// the next request sends what the store holds.

/** Stores a message (append-only, before the next model call); the caller applies it to the live context. */
export async function storeMessage(ctx: LoopContext, message: Message, kind: LiveEntry["kind"] = "conversation"): Promise<LiveEntry> {
  const entry: LiveEntry = { seq: null, message, kind };
  await storeEntries(ctx, [entry]);
  return entry;
}

/** Stores a message and adds it to the live context. */
export async function appendLive(ctx: LoopContext, message: Message, kind: LiveEntry["kind"] = "conversation"): Promise<LiveEntry> {
  const entry = await storeMessage(ctx, message, kind);
  apply(ctx.state, { type: "appended", entry });
  return entry;
}

/** An answer taken out of the conversation (refused, or redone): stored for the record, never sent again. */
export async function archiveMessage(ctx: LoopContext, message: Message): Promise<void> {
  await storeEntries(ctx, [{ seq: null, message, kind: "archived" }]);
}

/** Gives unstored entries the next seqs and writes them, in one statement; each then holds its message as stored. */
export async function storeEntries(
  ctx: LoopContext,
  entries: Array<{ seq: number | null; message: Message; kind: MessageKind }>,
): Promise<void> {
  const { state, deps } = ctx;
  const fresh = entries.filter((e) => e.seq === null);
  if (fresh.length === 0) return;
  fresh.forEach((e, i) => {
    e.seq = state.nextSeq + i;
  });
  apply(state, { type: "stored", count: fresh.length });
  const stored = await deps.store.messages.append(
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
  fresh.forEach((e, i) => {
    e.message = stored[i]!.message;
  });
}

export function textBlock(text: string): ContentBlock {
  return { type: "text", text };
}
