import type { Signal } from "../signals/types.js";
import { replaceScratchpad } from "../context/compacted-history.js";
import { apply } from "./apply.js";
import { emitChecklistStep, saveChecklist, stepChecklist } from "./checklist.js";
import type { LoopContext } from "./loop-context.js";

export interface SignalEffects {
  progressed: boolean;
  /** The first event signal of the response, for routing. */
  event: { topic: string; payload: unknown } | null;
  acknowledged: boolean;
  /** The agent's question for the person (the first of the response); the run waits after the turn. */
  question: string | null;
}

/**
 * Applies signals (from text or from loop tools), in the order written: each one writes the store
 * and the event stream as it comes, and the new scratchpad, checklist and notes are applied to the
 * loop state together at the end.
 */
export async function applySignals(ctx: LoopContext, signals: Signal[]): Promise<SignalEffects> {
  const { state, emitter } = ctx;
  const effects: SignalEffects = { progressed: false, event: null, acknowledged: false, question: null };
  let scratchpad = state.scratchpad;
  let checklist = state.checklist;
  const notes: string[] = [];
  for (const signal of signals) {
    switch (signal.kind) {
      case "scratchpad": {
        const content = replaceScratchpad(scratchpad, signal.content);
        if (content === scratchpad) break;
        scratchpad = content;
        await ctx.deps.store.sessions.update(state.session.id, { scratchpad: content });
        emitter.emit("signal.scratchpad", { chars: content.length, content: content.slice(0, 8_000) });
        effects.progressed = true;
        break;
      }
      case "checklist_add":
      case "checklist_done":
      case "checklist_failed": {
        const step = stepChecklist(checklist, signal);
        await saveChecklist(ctx, [step]);
        emitChecklistStep(emitter, step);
        if (step.note) notes.push(step.note);
        if (step.write) effects.progressed = true;
        checklist = step.checklist;
        break;
      }
      case "memory":
        await remember(ctx, signal.memoryType, signal.text);
        break;
      case "event":
        if (effects.event) notes.push(`Only one event per response counts; EVENT:${signal.topic} was ignored.`);
        else effects.event = { topic: signal.topic, payload: signal.payload };
        emitter.emit("signal.event", { topic: signal.topic, payload: signal.payload });
        break;
      case "acknowledge":
        effects.acknowledged = true;
        emitter.emit("signal.acknowledge", {});
        break;
      case "ask":
        if (effects.question) notes.push(`Ask one question at a time; "${signal.question}" was not asked.`);
        else effects.question = signal.question;
        effects.progressed = true;
        break;
      case "malformed":
        emitter.emit("signal.malformed", { signal: signal.signal, line: signal.line, reason: signal.reason });
        notes.push(`Your ${signal.signal} signal was not applied (${signal.reason}): ${signal.line}`);
        break;
    }
  }
  apply(state, {
    type: "signalled",
    scratchpad: scratchpad === state.scratchpad ? null : scratchpad,
    checklist: checklist === state.checklist ? null : checklist,
  });
  apply(state, { type: "noted", notes });
  return effects;
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
