import { carryOf, type FailureInput, type Handoff, type HandoffCarry } from "@hatloop/context";
import type { CheckpointReason, CheckpointRecord, Store } from "../store/port.js";
import type { GitPort } from "../ports/git.js";
import type { Emitter } from "../loop/emitter.js";
import type { LoopState, SavedLoopState } from "../loop/state.js";
import { runtimeMs } from "../loop/state.js";
import { failpoint } from "../failpoint.js";
import { shortId } from "../text/format.js";
import { toContextRef } from "./refs.js";

// Writes checkpoints: immutable rows with the live context as references, the scratchpad, the loop
// state, failure context and the handoff; commits the worktree first so a checkpoint names the exact
// tree it belongs to. Routine checkpoints whose context barely moved are skipped; retention keeps the
// last K plus the first and every completion and failure.

/** The failure a checkpoint records: the handoff's failure input, defined once in @hatloop/context. */
export type FailureContext = FailureInput;

export interface CheckpointerOptions {
  store: Store;
  git: GitPort;
  emitter: Emitter;
  retain: number;
  /** Commit the worktree at each checkpoint (not in place: the user's own branch stays theirs). */
  commit: boolean;
  now(): number;
  /** Builds the handoff stored with the checkpoint (filled by the handoff module). */
  handoff?: (
    state: Readonly<LoopState>,
    gitCommit: string | null,
    failure: FailureContext | undefined,
    reason: CheckpointReason,
  ) => Promise<unknown>;
}

export interface SavedCheckpoint {
  record: CheckpointRecord;
  carry: HandoffCarry | null;
}

/** Reasons whose repeats are skipped when the context moved less than 5% since the last one. */
const ROUTINE: CheckpointReason[] = ["interval", "warn-threshold"];
const KEEP: CheckpointReason[] = ["start", "completion", "failure"];

export class Checkpointer {
  private lastTokens = new Map<CheckpointReason, number>();

  constructor(private readonly options: CheckpointerOptions) {}

  /**
   * Writes a checkpoint of `state` (never changing it); null when a routine one was skipped. The
   * carry is what the handoff passes on to the loop state (decisions, open items, last failure).
   */
  async save(state: Readonly<LoopState>, reason: CheckpointReason, failure?: FailureContext): Promise<SavedCheckpoint | null> {
    const { store, git, emitter } = this.options;
    const previous = this.lastTokens.get(reason);
    if (ROUTINE.includes(reason) && previous !== undefined && Math.abs(state.contextTokens - previous) < 0.05 * Math.max(previous, 1))
      return null;
    const session = state.session;
    const gitCommit = this.options.commit
      ? await git.commitAll(
          session.worktreePath,
          `hatloop: ${shortId(session.id)} iteration ${state.iteration} (${state.hat.name}, ${reason})`,
        )
      : await git.headCommit(session.worktreePath).catch(() => null);
    const handoff = this.options.handoff ? await this.options.handoff(state, gitCommit, failure, reason) : null;
    const saved: SavedLoopState = {
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
    };
    const record = await store.checkpoints.append(session.id, {
      reason,
      iteration: state.iteration,
      hat: state.hat.name,
      scratchpad: state.scratchpad,
      context: toContextRef(state.live, state.stubbed),
      contextTokens: state.contextTokens,
      lastError: failure?.lastError ?? null,
      failedAt: failure?.failedAt ?? null,
      recoveryHint: failure?.recoveryHint ?? null,
      usage: { ...state.usage, costUsd: state.costUsd, runtimeMs: runtimeMs(state, this.options.now()) },
      state: saved,
      handoff,
      gitCommit,
    });
    this.lastTokens.set(reason, state.contextTokens);
    if (reason !== "start") failpoint("after-checkpoint-row");
    await store.sessions.update(session.id, { headCommit: gitCommit });
    await store.checkpoints.prune(session.id, this.options.retain, KEEP);
    emitter.emit("checkpoint.saved", { seq: record.seq, reason, commit: gitCommit, contextTokens: state.contextTokens });
    return { record, carry: carryFrom(handoff) };
  }
}

/** The carry of a handoff built by checkpoint/handoff.ts; null for another builder's (deps.handoff). */
function carryFrom(handoff: unknown): HandoffCarry | null {
  const h = handoff as Partial<Handoff> | null;
  return h && Array.isArray(h.decisions) && Array.isArray(h.open_items) && h.working ? carryOf(h as Handoff) : null;
}
