import { carryOf, type FailureInput, type Handoff, type HandoffCarry } from "@hatloop/context";
import type { GitPort } from "../ports/git.js";
import type { CheckpointReason, NewCheckpoint } from "../store/port.js";
import { runtimeMs, type LoopState, type SavedLoopState } from "../state/loop-state.js";
import { shortId } from "../text/format.js";
import { toContextRef } from "./refs.js";

// A checkpoint as data: the row (the live context as references, the scratchpad, the loop state,
// failure context, the handoff) and what its handoff carries on. The worktree is committed first so
// the checkpoint names the exact tree it belongs to; the loop's write path stores the row. Routine
// checkpoints whose context barely moved are not drafted at all.

/** The failure a checkpoint records: the handoff's failure input, defined once in @hatloop/context. */
export type FailureContext = FailureInput;

/** Builds the handoff stored with a checkpoint (checkpoint/handoff.ts, or a test's). */
export type HandoffBuilder = (
  state: Readonly<LoopState>,
  gitCommit: string | null,
  failure: FailureContext | undefined,
  reason: CheckpointReason,
) => Promise<unknown>;

export interface CheckpointDraft {
  reason: CheckpointReason;
  row: NewCheckpoint;
  /** What the handoff passes on to the loop state (decisions, open items, last failure); null for another builder's handoff. */
  carry: HandoffCarry | null;
}

/** Reasons whose repeats are skipped when the context moved less than 5% since the last one. */
const ROUTINE: CheckpointReason[] = ["interval", "warn-threshold"];
/** Reasons retention always keeps. */
export const KEPT_REASONS: CheckpointReason[] = ["start", "completion", "failure"];

/** A routine checkpoint whose context moved less than 5% since the last of its kind. */
function isRoutineRepeat(state: Readonly<LoopState>, reason: CheckpointReason): boolean {
  const previous = state.checkpointTokens[reason];
  return ROUTINE.includes(reason) && previous !== undefined && Math.abs(state.contextTokens - previous) < 0.05 * Math.max(previous, 1);
}

export async function draftCheckpoint(
  state: Readonly<LoopState>,
  reason: CheckpointReason,
  failure: FailureContext | undefined,
  deps: { git: GitPort; handoff: HandoffBuilder; now(): number },
): Promise<CheckpointDraft | null> {
  if (isRoutineRepeat(state, reason)) return null;
  const { session } = state;
  // Not in place: the user's own branch stays theirs.
  const gitCommit = session.inPlace
    ? await deps.git.headCommit(session.worktreePath).catch(() => null)
    : await deps.git.commitAll(
        session.worktreePath,
        `hatloop: ${shortId(session.id)} iteration ${state.iteration} (${state.hat.name}, ${reason})`,
      );
  const handoff = await deps.handoff(state, gitCommit, failure, reason);
  const row: NewCheckpoint = {
    reason,
    iteration: state.iteration,
    hat: state.hat.name,
    scratchpad: state.scratchpad,
    context: toContextRef(state.live, state.stubbed),
    contextTokens: state.contextTokens,
    lastError: failure?.lastError ?? null,
    failedAt: failure?.failedAt ?? null,
    recoveryHint: failure?.recoveryHint ?? null,
    usage: { ...state.usage, costUsd: state.costUsd, runtimeMs: runtimeMs(state, deps.now()) },
    state: savedState(state, reason),
    handoff,
    gitCommit,
  };
  return { reason, row, carry: carryFrom(handoff) };
}

function savedState(state: Readonly<LoopState>, reason: CheckpointReason): SavedLoopState {
  return {
    version: 1,
    checklist: state.checklist.map((i) => ({ ...i })),
    health: { ...state.health },
    hatHistory: [...state.hatHistory],
    stubbed: [...state.stubbed],
    anchor: state.anchor,
    nextSeq: state.nextSeq,
    compactions: state.compactions,
    notes: [...state.notes],
    decisions: state.decisions,
    openItems: state.openItems,
    lastFailure: state.lastFailure,
    instructions: state.instructions,
    guard: state.guard,
    // As the state holds it once this checkpoint is applied (apply.ts, "checkpointed").
    checkpointTokens: { ...state.checkpointTokens, [reason]: state.contextTokens },
  };
}

/** The carry of a handoff built by checkpoint/handoff.ts; null for another builder's. */
function carryFrom(handoff: unknown): HandoffCarry | null {
  const h = handoff as Partial<Handoff> | null;
  return h && Array.isArray(h.decisions) && Array.isArray(h.open_items) && h.working ? carryOf(h as Handoff) : null;
}
