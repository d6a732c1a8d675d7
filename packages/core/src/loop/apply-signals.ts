import type { Signal } from "../signals/types.js";
import { replaceScratchpad } from "../context/compacted-history.js";
import type { LoopContext } from "./loop-context.js";

export interface SignalEffects {
  progressed: boolean;
  /** The first event signal of the response, for routing. */
  event: { topic: string; payload: unknown } | null;
  acknowledged: boolean;
}

/** Applies signals (from text or from loop tools) to the loop state, the store and the event stream. */
export async function applySignals(ctx: LoopContext, signals: Signal[]): Promise<SignalEffects> {
  const effects: SignalEffects = { progressed: false, event: null, acknowledged: false };
  for (const signal of signals) {
    switch (signal.kind) {
      case "scratchpad":
        effects.progressed ||= await setScratchpad(ctx, signal.content);
        break;
      case "checklist_add":
      case "checklist_done":
      case "checklist_failed":
        effects.progressed ||= await applyChecklist(ctx, signal);
        break;
      case "memory":
        await remember(ctx, signal.memoryType, signal.text);
        break;
      case "event":
        if (effects.event) ctx.state.notes.push(`Only one event per response counts; EVENT:${signal.topic} was ignored.`);
        else effects.event = { topic: signal.topic, payload: signal.payload };
        ctx.emitter.emit("signal.event", { topic: signal.topic, payload: signal.payload });
        break;
      case "acknowledge":
        effects.acknowledged = true;
        ctx.emitter.emit("signal.acknowledge", {});
        break;
      case "malformed":
        ctx.emitter.emit("signal.malformed", { signal: signal.signal, line: signal.line, reason: signal.reason });
        ctx.state.notes.push(`Your ${signal.signal} signal was not applied (${signal.reason}): ${signal.line}`);
        break;
    }
  }
  return effects;
}

async function setScratchpad(ctx: LoopContext, written: string): Promise<boolean> {
  const { state } = ctx;
  const content = replaceScratchpad(state.scratchpad, written);
  if (content === state.scratchpad) return false;
  state.scratchpad = content;
  await ctx.deps.store.sessions.update(state.session.id, { scratchpad: content });
  ctx.emitter.emit("signal.scratchpad", { chars: content.length, content: content.slice(0, 8_000) });
  return true;
}

type ChecklistSignal = Extract<Signal, { kind: "checklist_add" | "checklist_done" | "checklist_failed" }>;

/** Applies one checklist signal; true when something changed. Exported for streaming use. */
export async function applyChecklist(ctx: LoopContext, signal: ChecklistSignal): Promise<boolean> {
  const { state, deps } = ctx;
  const sessionId = state.session.id;
  const existing = state.checklist.find((i) => i.id === signal.id);
  if (signal.kind === "checklist_add") {
    if (existing?.description === signal.description) return false;
    await deps.store.checklist.upsert(sessionId, [{ id: signal.id, description: signal.description }]);
    if (existing) existing.description = signal.description;
    else state.checklist.push({ id: signal.id, description: signal.description, status: "pending", reason: null });
    ctx.emitter.emit("checklist.set", { items: state.checklist.map((i) => ({ id: i.id, description: i.description, status: i.status })) });
    return true;
  }
  const status = signal.kind === "checklist_done" ? "done" : "failed";
  const reason = signal.kind === "checklist_failed" ? signal.reason : null;
  ctx.emitter.emit("signal.checklist", { id: signal.id, status, reason, known: Boolean(existing) });
  if (!existing) {
    const ids = state.checklist.map((i) => i.id).join(", ") || "none yet; add them with CHECKLIST_ADD";
    state.notes.push(`There is no checklist item "${signal.id}" (items: ${ids}).`);
    return false;
  }
  if (existing.status === status && existing.reason === reason) return false;
  existing.status = status;
  existing.reason = reason;
  await deps.store.checklist.setStatus(sessionId, signal.id, status, reason);
  return true;
}

async function remember(ctx: LoopContext, type: string, text: string): Promise<void> {
  const { state, deps } = ctx;
  const known = await deps.store.memories.listActive(state.session.repoPath, { kind: "memory", limit: 200 });
  ctx.emitter.emit("signal.memory", { memoryType: type, text });
  if (known.some((m) => m.content.trim().toLowerCase() === text.trim().toLowerCase())) return;
  await deps.store.memories.add({
    sessionId: state.session.id,
    repoPath: state.session.repoPath,
    kind: "memory",
    type,
    key: null,
    content: text,
    confidence: 0.6,
    source: "signal",
    iteration: state.iteration,
  });
}
