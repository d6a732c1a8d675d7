import type { CheckpointReason } from "../store/port.js";
import type { FailureContext } from "../checkpoint/checkpointer.js";
import type { LoopOutcome, LoopStatus } from "./deps.js";
import type { LoopContext } from "./loop-context.js";

// How a run ends. Every ending but completion is resumable, and every ending writes a checkpoint
// first, so `hatloop resume` always has somewhere to start.

export async function endRun(
  ctx: LoopContext,
  status: LoopStatus,
  reason: string,
  exitCode: LoopOutcome["exitCode"],
  checkpoint: CheckpointReason,
  failure?: FailureContext,
): Promise<LoopOutcome> {
  await ctx.checkpointer.save(ctx.state, checkpoint, failure);
  return { status, reason, exitCode };
}

export function failureFrom(ctx: LoopContext, error: unknown, where: string): FailureContext {
  const message = (error as Error)?.message ?? String(error);
  const status = (error as { status?: number | null }).status;
  const hint =
    status === 401 || status === 403
      ? "check ANTHROPIC_API_KEY, then run: hatloop resume " + ctx.state.session.id.slice(0, 8)
      : `fix the cause, then run: hatloop resume ${ctx.state.session.id.slice(0, 8)} (the session continues from this checkpoint)`;
  return { lastError: message.split("\n")[0]!.slice(0, 500), failedAt: `${where} at iteration ${ctx.state.iteration}`, recoveryHint: hint };
}
