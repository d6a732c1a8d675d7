import type { ToolResultBlock } from "@hatloop/context";
import { toolUses } from "@hatloop/context";
import type { HatloopConfig } from "../config.js";
import { isContextRef, refSeqs } from "../checkpoint/refs.js";
import type { CheckpointRecord, SessionRecord } from "../store/port.js";
import type { LiveEntry } from "./context-hook.js";
import type { LoopDeps } from "./deps.js";
import { initialHealth } from "./health.js";
import type { LoopState, SavedLoopState } from "./state.js";

// Rebuilds the loop state. A fresh session starts empty. A session with checkpoints restores the
// newest readable one (an unreadable one is skipped with a warning) and then replays the messages
// stored after it, so a crash between checkpoints loses nothing; a tool call the crash left without
// a result gets one that says so.

export interface RestoredState {
  state: LoopState;
  resumed: boolean;
  warnings: string[];
  checkpoint: CheckpointRecord | null;
}

export async function restoreState(session: SessionRecord, deps: LoopDeps, config: HatloopConfig, now: number): Promise<RestoredState> {
  void config;
  const hat = deps.hats.get(session.hat);
  if (!hat) throw new Error(`session ${session.id.slice(0, 8)} wears hat "${session.hat}", which is not defined`);
  const state: LoopState = {
    session,
    hat,
    iteration: session.iteration,
    live: [],
    nextSeq: (await deps.store.messages.lastSeq(session.id)) + 1,
    scratchpad: session.scratchpad,
    checklist: await deps.store.checklist.list(session.id),
    usage: { ...session.usage },
    costUsd: session.costUsd,
    priorRuntimeMs: session.runtimeMs,
    runStartedAt: now,
    health: initialHealth(),
    hatHistory: [],
    stubbed: new Set(),
    anchor: null,
    contextTokens: session.contextTokens,
    compactions: 0,
    warnCheckpointed: false,
    healthStop: null,
    seenCalls: new Set(),
    notes: [],
    request: { system: [], tools: [] },
  };
  const checkpoints = await deps.store.checkpoints.list(session.id, { limit: 100 });
  const warnings: string[] = [];
  for (const checkpoint of checkpoints) {
    try {
      await restoreFrom(state, checkpoint, deps);
      return { state, resumed: true, warnings, checkpoint };
    } catch (error) {
      warnings.push(`checkpoint #${checkpoint.seq} is unreadable (${(error as Error).message}); falling back to an earlier one`);
    }
  }
  if (state.nextSeq > 1) {
    // Messages but no readable checkpoint: the stored log itself is the live context.
    state.live = (await deps.store.messages.range(session.id, 1, state.nextSeq - 1)).map((m) => ({ seq: m.seq, message: m.message, kind: m.kind }));
    repairTail(state);
    return { state, resumed: true, warnings, checkpoint: null };
  }
  return { state, resumed: false, warnings, checkpoint: null };
}

async function restoreFrom(state: LoopState, checkpoint: CheckpointRecord, deps: LoopDeps): Promise<void> {
  if (!isContextRef(checkpoint.context)) throw new Error("its context references are malformed");
  const saved = checkpoint.state as Partial<SavedLoopState> | null;
  if (!saved || saved.version !== 1) throw new Error("its saved state is malformed");
  const seqs = refSeqs(checkpoint.context);
  const bySeq = new Map((await deps.store.messages.bySeqs(state.session.id, seqs)).map((m) => [m.seq, m]));
  const missing = seqs.filter((s) => !bySeq.has(s)).length;
  if (missing) throw new Error(`${missing} referenced messages are missing`);
  // The live context keeps its own order (a summary stored late can come first), not seq order.
  const stored = seqs.map((s) => bySeq.get(s)!);
  const lastRef = seqs.length ? Math.max(...seqs) : 0;
  const tail = state.nextSeq - 1 > lastRef ? await deps.store.messages.range(state.session.id, lastRef + 1, state.nextSeq - 1) : [];
  const stubbed = new Set(checkpoint.context.stubbed);
  const entries = [...stored, ...tail];
  const messages = deps.restub ? deps.restub(entries.map((m) => m.message), entries.map((m) => m.seq), stubbed) : entries.map((m) => m.message);
  state.live = entries.map((m, i): LiveEntry => ({ seq: m.seq, message: messages[i]!, kind: m.kind }));
  state.stubbed = stubbed;
  state.health = { ...initialHealth(), ...saved.health, idleIterations: 0, consecutiveFailures: 0, refusals: 0 };
  state.hatHistory = saved.hatHistory ?? [];
  state.compactions = saved.compactions ?? 0;
  state.notes = saved.notes ?? [];
  state.iteration = Math.max(checkpoint.iteration, ...tail.map((m) => m.iteration));
  if (tail.length === 0) {
    state.scratchpad = checkpoint.scratchpad;
    state.contextTokens = checkpoint.contextTokens;
    const hat = deps.hats.get(checkpoint.hat);
    if (hat) state.hat = hat;
  }
  repairTail(state);
}

/** The live context must end with a user message, and every tool call must have its result. */
function repairTail(state: LoopState): void {
  const last = state.live.at(-1);
  if (!last || last.message.role !== "assistant") return;
  const calls = toolUses(last.message);
  const results: ToolResultBlock[] = calls.map((c) => ({
    type: "tool_result",
    tool_use_id: c.id,
    content: "Not run: the hatloop process stopped before this call finished. Check the worktree and run it again if it is still needed.",
    is_error: true,
  }));
  state.live.push({
    seq: null,
    kind: "conversation",
    message: { role: "user", content: [...results, { type: "text", text: "[hatloop] The session was interrupted and has been resumed." }] },
  });
}
