import {
  errorMessage,
  renderResumePacket,
  toolUses,
  validateHandoff,
  type Handoff,
  type Message,
  type ToolResultBlock,
} from "@hatloop/context";
import { isContextRef, refSeqs } from "../checkpoint/refs.js";
import { eventReader } from "../persist/read-events.js";
import type { CheckpointRecord, SessionRecord, StoredMessage, Store } from "../store/port.js";
import { initialHealth } from "../state/health-state.js";
import type { LiveEntry } from "../state/live-entry.js";
import { sessionState, type LoopState, type SavedLoopState } from "../state/loop-state.js";
import { shortId } from "../text/format.js";
import type { LoopDeps } from "./deps.js";
import { completedIn } from "./completion.js";

// Rebuilds the loop state. A fresh session starts empty. A session with checkpoints restores the
// newest readable one (an unreadable one is skipped with a warning) and then replays the messages
// stored after it, so a crash between checkpoints loses nothing; a tool call the crash left without
// a result gets one that says so. An answer stored without its closing message (an open turn) is
// handed back with those results, for the loop to close as it would have (open-turn.ts).

export interface RestoredState {
  state: LoopState;
  resumed: boolean;
  warnings: string[];
  checkpoint: CheckpointRecord | null;
  /** The run that stored the last message had completed the task (killed before recording it). */
  completed: boolean;
  /** The last stored message is an answer whose turn was never closed: its signals are not applied yet. */
  openTurn: OpenTurn | null;
  /** The resume packet's text, to append once the open turn is closed (the API wants tool results right after their calls). */
  resumePacket: string | null;
}

export interface OpenTurn {
  answer: Message;
  /** A result for each of its tool calls, saying what is known of it. */
  results: ToolResultBlock[];
}

export async function restoreState(session: SessionRecord, deps: LoopDeps, now: number): Promise<RestoredState> {
  const hat = deps.hats.get(session.hat);
  if (!hat) throw new Error(`session ${shortId(session.id)} wears hat "${session.hat}", which is not defined`);
  const state = sessionState(session, hat, {
    nextSeq: (await deps.store.messages.lastSeq(session.id)) + 1,
    checklist: await deps.store.checklist.list(session.id),
    grades: await deps.store.grades.list(session.id),
    runStartedAt: now,
  });
  const point = await findRestorePoint(deps.store, session.id);
  if (point.checkpoint) {
    restoreFrom(state, point, deps);
    const completed = await appendTail(state, point, deps);
    const openTurn = await openTurnOf(state, deps.store);
    const resumePacket = completed ? null : packetOf(state, point.checkpoint, point.warnings);
    return { state, resumed: true, warnings: point.warnings, checkpoint: point.checkpoint, completed, openTurn, resumePacket };
  }
  const warnings = point.warnings;
  if (state.nextSeq > 1) {
    // Messages but no readable checkpoint: the stored log itself is the live context.
    const stored = await deps.store.messages.range(session.id, 1, state.nextSeq - 1);
    state.live = liveEntries(stored);
    // The row may lag the log (killed before the row was updated): the messages say how far it got.
    state.iteration = Math.max(state.iteration, ...stored.map((m) => m.iteration));
    state.eventIteration = state.iteration;
    takeHatOf(state, stored, deps);
    const completed = completedIn(state.live.at(-1)?.message);
    return {
      state,
      resumed: true,
      warnings,
      checkpoint: null,
      completed,
      openTurn: await openTurnOf(state, deps.store),
      resumePacket: null,
    };
  }
  return { state, resumed: false, warnings, checkpoint: null, completed: false, openTurn: null, resumePacket: null };
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
      warnings.push(`checkpoint #${checkpoint.seq} is unreadable (${errorMessage(error)}); falling back to an earlier one`);
    }
  }
  return { checkpoint: null, stored: [], tailFrom: 1, warnings };
}

function restoreFrom(state: LoopState, point: RestorePoint, deps: LoopDeps): void {
  const checkpoint = point.checkpoint!;
  const saved = checkpoint.state as SavedLoopState;
  const stubbed = new Set((checkpoint.context as { stubbed: string[] }).stubbed);
  const live = point.stored.map((m): LiveEntry => ({
    seq: m.seq,
    message: m.message,
    kind: m.kind === "injected" ? "injected" : "conversation",
  }));
  state.live = deps.restub ? deps.restub(live, stubbed) : live;
  state.stubbed = stubbed;
  state.health = { ...initialHealth(), ...saved.health, idleIterations: 0, consecutiveFailures: 0, refusals: 0, modelRefusals: 0 };
  /* eslint-disable @typescript-eslint/no-unnecessary-condition -- checkpoints saved by earlier versions lack these fields */
  state.hatHistory = saved.hatHistory ?? [];
  state.compactions = saved.compactions ?? 0;
  state.notes = saved.notes ?? [];
  state.decisions = saved.decisions ?? [];
  state.openItems = saved.openItems ?? [];
  state.lastFailure = saved.lastFailure ?? null;
  state.instructions = saved.instructions ?? [];
  /* eslint-enable @typescript-eslint/no-unnecessary-condition */
  if (saved.guard) state.guard = saved.guard;
  if (saved.checkpointTokens) state.checkpointTokens = saved.checkpointTokens;
  state.iteration = checkpoint.iteration;
  state.eventIteration = checkpoint.iteration;
  state.scratchpad = checkpoint.scratchpad;
  state.contextTokens = checkpoint.contextTokens;
  const hat = deps.hats.get(checkpoint.hat);
  if (hat) state.hat = hat;
}

/**
 * Messages stored after the checkpoint (the run went on, then crashed) continue the live context.
 * Returns whether the live context ends with a completed task's closing message.
 */
async function appendTail(state: LoopState, point: RestorePoint, deps: LoopDeps): Promise<boolean> {
  const last = state.nextSeq - 1;
  const tail = last >= point.tailFrom ? await deps.store.messages.range(state.session.id, point.tailFrom, last) : [];
  if (tail.length) {
    state.live.push(...liveEntries(tail));
    state.iteration = Math.max(state.iteration, ...tail.map((m) => m.iteration));
    state.eventIteration = state.iteration;
    // The session row was kept current after the checkpoint: its scratchpad is newer.
    state.scratchpad = state.session.scratchpad;
    takeHatOf(state, tail, deps);
  }
  // Also with no tail: killed after the completion checkpoint, before the row said completed.
  return completedIn(state.live.at(-1)?.message);
}

/**
 * The hat of the newest stored message. A turn that changes hats stores its closing message in the
 * new hat before the session row is updated, so after a crash between the two the message is right.
 */
function takeHatOf(state: LoopState, stored: StoredMessage[], deps: LoopDeps): void {
  const hat = deps.hats.get(stored.at(-1)?.hat ?? state.session.hat);
  if (hat) state.hat = hat;
}

/**
 * The lean resume packet (docs/design/handoff.md: ~600-800 tokens, never raw summary blobs), rendered from the
 * checkpoint's handoff, goes at the end of the live context so the model knows where it stands.
 */
function packetOf(state: LoopState, checkpoint: CheckpointRecord, warnings: string[]): string | null {
  let handoff: Handoff;
  try {
    handoff = validateHandoff(checkpoint.handoff);
  } catch (error) {
    warnings.push(`checkpoint #${checkpoint.seq} has no usable handoff (${errorMessage(error)}); resuming without a resume packet`);
    return null;
  }
  return renderResumePacket(handoff, { storedMessages: state.nextSeq - 1 });
}

/** tool.result events of the given calls: proof they finished, with their preview. */
async function finishedCalls(
  store: Store,
  sessionId: string,
  ids: Set<string>,
): Promise<Map<string, { isError: boolean; preview: string }>> {
  const found = new Map<string, { isError: boolean; preview: string }>();
  // An unreadable event proves nothing: the call is then labelled as not known to have finished.
  for (const event of eventReader(() => {}).read(await store.events.tail(sessionId, 200))) {
    if (event.type === "tool.result" && ids.has(event.data.id))
      found.set(event.data.id, { isError: event.data.isError, preview: event.data.preview });
  }
  return found;
}

/** Stored messages as live entries; archived answers (refused, redone) stay out of the conversation. */
function liveEntries(stored: StoredMessage[]): LiveEntry[] {
  return stored.flatMap((m): LiveEntry[] => (m.kind === "archived" ? [] : [{ seq: m.seq, message: m.message, kind: m.kind }]));
}

/**
 * An answer stored without its closing message: every tool call gets a result labelled by what the
 * events say of it, finished (its output was not kept) or not.
 */
async function openTurnOf(state: LoopState, store: Store): Promise<OpenTurn | null> {
  const last = state.live.at(-1);
  if (!last || last.message.role !== "assistant") return null;
  const calls = toolUses(last.message);
  const finished = calls.length ? await finishedCalls(store, state.session.id, new Set(calls.map((c) => c.id))) : new Map<string, never>();
  const results: ToolResultBlock[] = calls.map((c) => {
    const done = finished.get(c.id);
    const content = done
      ? `Finished (${done.isError ? "with an error" : "ok"}) just before the hatloop process stopped, but its output was not kept; it began: ${done.preview || "(nothing)"}. Check its effect in the worktree before running it again.`
      : "Interrupted: the hatloop process stopped while this call ran (or before it started); it may have done part of its work. Check the worktree and run it again if it is still needed.";
    return { type: "tool_result", tool_use_id: c.id, content, is_error: true };
  });
  return { answer: last.message, results };
}
