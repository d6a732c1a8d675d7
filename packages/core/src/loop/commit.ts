import { stampEvent } from "../emitter.js";
import { apply } from "../state/apply.js";
import type { Change } from "../state/change.js";
import type { LoopState } from "../state/loop-state.js";
import { changeEvents } from "./change-events.js";
import type { LoopContext } from "./loop-context.js";
import type { Said } from "./said.js";
import { writeChange } from "./store-writes.js";

// The loop's write path: the only way a step changes anything. A step hands over what it did as a
// Change; `commit` stores it (store-writes.ts), applies it to the loop state (state/apply.ts) and
// emits its events (change-events.ts), in that order, once. The store comes first so the state only
// ever holds what is stored, as stored: a write that fails (a lost lease, an outage that outlasted
// its retries) leaves the state as it was. `report` emits an event about something that changes
// neither the state nor the store (streamed text, a tool call starting, a retry).

export async function commit(ctx: LoopContext, change: Change): Promise<void> {
  const state = ctx.state as LoopState; // the one place the steps' read-only view is written
  const written = await writeChange(ctx.deps.store, state, change);
  apply(state, change, written.messages, written.grade);
  for (const said of changeEvents(change, state, written, ctx.deps.runner)) emit(ctx, said);
}

export function report(ctx: LoopContext, said: Said): void {
  emit(ctx, said);
}

function emit(ctx: LoopContext, said: Said): void {
  const event = stampEvent(ctx.state.session.id, ctx.state.eventIteration, ctx.now(), said.type, said.data);
  for (const sink of ctx.deps.sinks) sink(event);
}
