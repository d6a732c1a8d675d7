import { renderResumePacket, toolUses, validateHandoff, type Handoff, type ToolResultBlock } from "@hatloop/context";
import type { HatloopConfig } from "../config.js";
import { isContextRef, refSeqs } from "../checkpoint/refs.js";
import type { CheckpointRecord, SessionRecord, StoredMessage, Store } from "../store/port.js";
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
    decisions: [],
    openItems: [],
    lastFailure: null,
    instructions: [],
  };
  const point = await findRestorePoint(deps.store, session.id);
  if (point.checkpoint) {
    restoreFrom(state, point, deps);
    await appendTail(state, point, deps);
    addResumePacket(state, point.checkpoint, point.warnings);
    return { state, resumed: true, warnings: point.warnings, checkpoint: point.checkpoint };
  }
  const warnings = point.warnings;
  if (state.nextSeq > 1) {
    // Messages but no readable checkpoint: the stored log itself is the live context.
    state.live = (await deps.store.messages.range(session.id, 1, state.nextSeq - 1)).map((m) => ({ seq: m.seq, message: m.message, kind: m.kind }));
    repairTail(state);
    return { state, resumed: true, warnings, checkpoint: null };
  }
  return { state, resumed: false, warnings, checkpoint: null };
}

export interface RestorePoint {
  checkpoint: CheckpointRecord | null;
  /** The messages its context references, in live-context order. */
  stored: StoredMessage[];
  /** Messages stored after those references: the run went on after the checkpoint (a crash). */
  tailFrom: number;
  warnings: string[];
}

/** The newest checkpoint whose references, state and messages are all readable; older ones are the fallback. */
export async function findRestorePoint(store: Store, sessionId: string): Promise<RestorePoint> {
  const warnings: string[] = [];
  for (const checkpoint of await store.checkpoints.list(sessionId, { limit: 100 })) {
    try {
      if (!isContextRef(checkpoint.context)) throw new Error("its context references are malformed");
      const saved = checkpoint.state as Partial<SavedLoopState> | null;
      if (!saved || saved.version !== 1) throw new Error("its saved state is malformed");
      const seqs = refSeqs(checkpoint.context);
      const bySeq = new Map((await store.messages.bySeqs(sessionId, seqs)).map((m) => [m.seq, m]));
      const missing = seqs.filter((s) => !bySeq.has(s)).length;
      if (missing) throw new Error(`${missing} referenced messages are missing`);
      // The live context keeps its own order (a summary stored late can come first), not seq order.
      return { checkpoint, stored: seqs.map((s) => bySeq.get(s)!), tailFrom: (seqs.length ? Math.max(...seqs) : 0) + 1, warnings };
    } catch (error) {
      warnings.push(`checkpoint #${checkpoint.seq} is unreadable (${(error as Error).message}); falling back to an earlier one`);
    }
  }
  return { checkpoint: null, stored: [], tailFrom: 1, warnings };
}

function restoreFrom(state: LoopState, point: RestorePoint, deps: LoopDeps): void {
  const checkpoint = point.checkpoint!;
  const saved = checkpoint.state as SavedLoopState;
  const stubbed = new Set((checkpoint.context as { stubbed: string[] }).stubbed);
  const messages = deps.restub ? deps.restub(point.stored.map((m) => m.message), point.stored.map((m) => m.seq), stubbed) : point.stored.map((m) => m.message);
  state.live = point.stored.map((m, i): LiveEntry => ({ seq: m.seq, message: messages[i]!, kind: m.kind }));
  state.stubbed = stubbed;
  state.health = { ...initialHealth(), ...saved.health, idleIterations: 0, consecutiveFailures: 0, refusals: 0 };
  state.hatHistory = saved.hatHistory ?? [];
  state.compactions = saved.compactions ?? 0;
  state.notes = saved.notes ?? [];
  state.decisions = saved.decisions ?? [];
  state.openItems = saved.openItems ?? [];
  state.lastFailure = saved.lastFailure ?? null;
  state.instructions = saved.instructions ?? [];
  state.iteration = checkpoint.iteration;
  state.scratchpad = checkpoint.scratchpad;
  state.contextTokens = checkpoint.contextTokens;
  const hat = deps.hats.get(checkpoint.hat);
  if (hat) state.hat = hat;
}

/** Messages stored after the checkpoint (the run went on, then crashed) continue the live context. */
async function appendTail(state: LoopState, point: RestorePoint, deps: LoopDeps): Promise<void> {
  const last = state.nextSeq - 1;
  const tail = last >= point.tailFrom ? await deps.store.messages.range(state.session.id, point.tailFrom, last) : [];
  if (tail.length) {
    state.live.push(...tail.map((m): LiveEntry => ({ seq: m.seq, message: m.message, kind: m.kind })));
    state.iteration = Math.max(state.iteration, ...tail.map((m) => m.iteration));
    // The session row was kept current after the checkpoint: its scratchpad and hat are newer.
    state.scratchpad = state.session.scratchpad;
    const hat = deps.hats.get(state.session.hat);
    if (hat) state.hat = hat;
  }
  repairTail(state);
}

/**
 * The lean resume packet (seed 001: ~600-800 tokens, never raw summary blobs), rendered from the
 * checkpoint's handoff, goes at the end of the live context so the model knows where it stands.
 */
function addResumePacket(state: LoopState, checkpoint: CheckpointRecord, warnings: string[]): void {
  let handoff: Handoff;
  try {
    handoff = validateHandoff(checkpoint.handoff);
  } catch (error) {
    warnings.push(`checkpoint #${checkpoint.seq} has no usable handoff (${(error as Error).message}); resuming without a resume packet`);
    return;
  }
  const text = renderResumePacket(handoff, { storedMessages: state.nextSeq - 1 });
  state.live.push({ seq: null, kind: "injected", message: { role: "user", content: [{ type: "text", text }] } });
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
