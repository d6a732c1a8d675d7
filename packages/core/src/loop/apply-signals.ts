import type { Signal } from "../signals/types.js";
import { replaceScratchpad } from "../context/compacted-history.js";
import { stepChecklist } from "../state/checklist-step.js";
import { commit, report } from "./commit.js";
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
 * Commits signals (from text or from loop tools), in the order written; what they say back to the
 * model (unknown items, ignored extras, malformed lines) goes with the closing message as notes.
 */
export async function applySignals(ctx: LoopContext, signals: Signal[]): Promise<SignalEffects> {
  const { state } = ctx;
  const effects: SignalEffects = { progressed: false, event: null, acknowledged: false, question: null };
  const notes: string[] = [];
  for (const signal of signals) {
    switch (signal.kind) {
      case "scratchpad": {
        const scratchpad = replaceScratchpad(state.scratchpad, signal.content);
        if (scratchpad === state.scratchpad) break;
        await commit(ctx, { type: "scratchpad-replaced", scratchpad });
        effects.progressed = true;
        break;
      }
      case "checklist_add":
      case "checklist_done":
      case "checklist_failed": {
        const step = stepChecklist(state.checklist, signal);
        await commit(ctx, { type: "checklist-stepped", step });
        if (step.note) notes.push(step.note);
        if (step.write) effects.progressed = true;
        break;
      }
      case "memory":
        await remember(ctx, signal.memoryType, signal.text);
        break;
      case "event":
        if (effects.event) notes.push(`Only one event per response counts; EVENT:${signal.topic} was ignored.`);
        else effects.event = { topic: signal.topic, payload: signal.payload };
        report(ctx, { type: "signal.event", data: { topic: signal.topic, payload: signal.payload } });
        break;
      case "acknowledge":
        effects.acknowledged = true;
        report(ctx, { type: "signal.acknowledge", data: {} });
        break;
      case "ask":
        if (effects.question) notes.push(`Ask one question at a time; "${signal.question}" was not asked.`);
        else effects.question = signal.question;
        effects.progressed = true;
        break;
      case "malformed":
        report(ctx, { type: "signal.malformed", data: { signal: signal.signal, line: signal.line, reason: signal.reason } });
        notes.push(`Your ${signal.signal} signal was not applied (${signal.reason}): ${signal.line}`);
        break;
    }
  }
  await commit(ctx, { type: "noted", notes });
  return effects;
}

/** A memory for later sessions in this repository; one already known (the same words) is not kept twice. */
async function remember(ctx: LoopContext, memoryType: string, text: string): Promise<void> {
  const { state, deps } = ctx;
  const known = await deps.store.memories.listActive(state.session.repoPath, { kind: "memory", limit: 200 });
  const duplicate = known.some((m) => m.content.trim().toLowerCase() === text.trim().toLowerCase());
  await commit(ctx, { type: "remembered", memoryType, text, duplicate });
}
