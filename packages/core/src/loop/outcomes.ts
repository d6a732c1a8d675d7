import type { CheckpointReason } from "../store/port.js";
import { errorLine } from "../text/error-line.js";
import { shortId } from "../text/format.js";
import { draftCheckpoint, type FailureContext } from "../checkpoint/draft.js";
import type { LoopOutcome } from "../state/outcome.js";
import { commit } from "./commit.js";
import { COMPLETED } from "./completion.js";
import type { LoopContext } from "./loop-context.js";

// How a run ends. Every ending but completion is resumable, and every ending writes a checkpoint
// first, so `hatloop resume` always has somewhere to start.

/** Why a run ends, as the step that ends it says it. */
export type Ending =
  | { kind: "completed" }
  /** Ctrl-C (or an abort while the model answered). */
  | { kind: "interrupted" }
  /** `hatloop stop`. */
  | { kind: "stopped-by-user" }
  | { kind: "budget"; budget: string }
  /** The account's usage limit, and the run was not to wait for its reset (usage-limit.ts). */
  | { kind: "usage-limit"; resetAt: number | null }
  /** The agent asked a question and nobody here waits to answer it (a headless run). */
  | { kind: "waiting" }
  /** Loop health asked to stop (repetition, no progress, refusals...). */
  | { kind: "health"; reason: string }
  /** The grader found criteria unmet after the last revision allowed (grader.maxRevisions). */
  | { kind: "revisions-exhausted"; revisions: number; unmet: number; criteria: number }
  | { kind: "failed"; reason: string; failure: FailureContext };

export async function endRun(ctx: LoopContext, ending: Ending): Promise<LoopOutcome> {
  const { outcome, checkpoint } = outcomeOf(ending);
  await saveCheckpoint(ctx, checkpoint, ending.kind === "failed" ? ending.failure : undefined);
  return outcome;
}

function outcomeOf(ending: Ending): { outcome: LoopOutcome; checkpoint: CheckpointReason } {
  switch (ending.kind) {
    case "completed":
      return { outcome: { status: "completed", reason: COMPLETED, exitCode: 0 }, checkpoint: "completion" };
    case "interrupted":
      return { outcome: { status: "paused", reason: "interrupted", exitCode: 130 }, checkpoint: "pause" };
    case "stopped-by-user":
      return { outcome: { status: "paused", reason: "stopped by the user", exitCode: 130 }, checkpoint: "pause" };
    case "budget":
      return { outcome: { status: "paused", reason: `budget:${ending.budget}`, exitCode: 3 }, checkpoint: "budget" };
    case "usage-limit": {
      const resets = ending.resetAt === null ? "" : ` (resets ${new Date(ending.resetAt).toISOString().replace(/\.\d{3}Z$/, "Z")})`;
      return { outcome: { status: "paused", reason: `usage limit${resets}`, exitCode: 3 }, checkpoint: "pause" };
    }
    case "waiting":
      return { outcome: { status: "waiting", reason: "waiting for an answer", exitCode: 4 }, checkpoint: "question" };
    case "health":
      return { outcome: { status: "stopped", reason: `health:${ending.reason}`, exitCode: 1 }, checkpoint: "pause" };
    case "revisions-exhausted": {
      const reason = `grader:max_revisions_reached (${ending.unmet} of ${ending.criteria} acceptance criteria unmet after ${ending.revisions - 1} revisions)`;
      return { outcome: { status: "stopped", reason, exitCode: 1 }, checkpoint: "pause" };
    }
    case "failed":
      return { outcome: { status: "failed", reason: ending.reason, exitCode: 1 }, checkpoint: "failure" };
  }
}

/** Writes a checkpoint (unless a routine one barely moved); its handoff's running decisions, open items and last failure carry on. */
export async function saveCheckpoint(ctx: LoopContext, reason: CheckpointReason, failure?: FailureContext): Promise<void> {
  const draft = await draftCheckpoint(ctx.state, reason, failure, { git: ctx.deps.git, handoff: ctx.handoff, now: ctx.now });
  if (draft) await commit(ctx, { type: "checkpointed", ...draft, retain: ctx.config.checkpoint.retain });
}

export function failureFrom(ctx: LoopContext, error: unknown, where: string): FailureContext {
  const status = (error as { status?: number | null }).status;
  const hint =
    status === 401 || status === 403
      ? "check ANTHROPIC_API_KEY, then run: hatloop resume " + shortId(ctx.state.session.id)
      : `fix the cause, then run: hatloop resume ${shortId(ctx.state.session.id)} (the session continues from this checkpoint)`;
  return { lastError: errorLine(error), failedAt: `${where} at iteration ${ctx.state.iteration}`, recoveryHint: hint };
}
