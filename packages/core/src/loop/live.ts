import type { ContentBlock, Message } from "@hatloop/context";
import { estimateTokens } from "@hatloop/context";
import type { MessageKind } from "../store/port.js";
import { apply } from "./apply.js";
import type { LiveEntry } from "./context-hook.js";
import type { LoopContext } from "./loop-context.js";
import { redactMessage } from "../context/redact-message.js";

// Messages enter the store and the live context here. Each is redacted once, as it is stored, so
// the live context (what the next request sends) holds what the store holds; the store's own
// redaction (redactingStore) guards every other writer of the database.

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

/** Gives unstored entries the next seqs, redacts them and writes them, in one statement. */
export async function storeEntries(
  ctx: LoopContext,
  entries: Array<{ seq: number | null; message: Message; kind: MessageKind }>,
): Promise<void> {
  const { state, deps } = ctx;
  const fresh = entries.filter((e) => e.seq === null);
  if (fresh.length === 0) return;
  fresh.forEach((e, i) => {
    e.seq = state.nextSeq + i;
    e.message = redactMessage(e.message);
  });
  apply(state, { type: "stored", count: fresh.length });
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

export function textBlock(text: string): ContentBlock {
  return { type: "text", text };
}
