import type { CheckpointReason, CheckpointRecord, Store } from "../store/port.js";
import type { GitPort } from "../loop/deps.js";
import type { Emitter } from "../loop/emitter.js";
import type { LoopState, SavedLoopState } from "../loop/state.js";
import { runtimeMs } from "../loop/state.js";
import { toContextRef } from "./refs.js";

// Writes checkpoints: immutable rows with the live context as references, the scratchpad, the loop
// state, failure context and the handoff; commits the worktree first so a checkpoint names the exact
// tree it belongs to. Routine checkpoints whose context barely moved are skipped; retention keeps the
// last K plus the first and every completion and failure.

export interface FailureContext {
  lastError: string;
  failedAt: string;
  recoveryHint: string;
}

export interface CheckpointerOptions {
  store: Store;
  git: GitPort;
  emitter: Emitter;
  retain: number;
  /** Commit the worktree at each checkpoint (not in place: the user's own branch stays theirs). */
  commit: boolean;
  now(): number;
  /** Builds the handoff stored with the checkpoint (filled by the handoff module). */
  handoff?: (state: LoopState, gitCommit: string | null, failure?: FailureContext) => Promise<unknown>;
}

/** Reasons whose repeats are skipped when the context moved less than 5% since the last one. */
const ROUTINE: CheckpointReason[] = ["interval", "warn-threshold"];
const KEEP: CheckpointReason[] = ["start", "completion", "failure"];

export class Checkpointer {
  private lastTokens = new Map<CheckpointReason, number>();

  constructor(private readonly options: CheckpointerOptions) {}

  /** Remembers where earlier runs left off, so routine skips work across a resume. */
  prime(reason: CheckpointReason, tokens: number): void {
    this.lastTokens.set(reason, tokens);
  }

  async save(state: LoopState, reason: CheckpointReason, failure?: FailureContext): Promise<CheckpointRecord | null> {
    const { store, git, emitter } = this.options;
    const previous = this.lastTokens.get(reason);
    if (ROUTINE.includes(reason) && previous !== undefined && Math.abs(state.contextTokens - previous) < 0.05 * Math.max(previous, 1)) return null;
    const session = state.session;
    const gitCommit = this.options.commit
      ? await git.commitAll(session.worktreePath, `hatloop: ${session.id.slice(0, 8)} iteration ${state.iteration} (${state.hat.name}, ${reason})`)
      : await git.headCommit(session.worktreePath).catch(() => null);
    const handoff = this.options.handoff ? await this.options.handoff(state, gitCommit, failure) : null;
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
      summary: null,
      lastError: failure?.lastError ?? null,
      failedAt: failure?.failedAt ?? null,
      recoveryHint: failure?.recoveryHint ?? null,
      usage: { ...state.usage, costUsd: state.costUsd, runtimeMs: runtimeMs(state, this.options.now()) },
      state: saved,
      handoff,
      gitCommit,
    });
    this.lastTokens.set(reason, state.contextTokens);
    await store.sessions.update(session.id, { headCommit: gitCommit });
    await store.checkpoints.prune(session.id, this.options.retain, KEEP);
    emitter.emit("checkpoint.saved", { seq: record.seq, reason, commit: gitCommit, contextTokens: state.contextTokens });
    return record;
  }
}
