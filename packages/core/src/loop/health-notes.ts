import type { HealthCheck } from "./health.js";
import type { ExecutionResult } from "./execution.js";
import { checkResult } from "./health.js";
import { LOOP_TOOL_NAMES } from "./loop-tools.js";
import { commit } from "./commit.js";
import type { LoopContext } from "./loop-context.js";

/** A health check's counters and notices: every notice is an event, a hint is told to the model, a stop ends the run. */
export async function commitHealth(ctx: LoopContext, check: HealthCheck): Promise<void> {
  await commit(ctx, { type: "health-checked", health: check.health, notices: check.notices });
}

/** The tool calls' results, one check each (loop tools are the loop's own, not work that fails). */
export async function recordHealth(ctx: LoopContext, execution: ExecutionResult | null): Promise<void> {
  for (const record of execution?.records ?? []) {
    if (LOOP_TOOL_NAMES.has(record.call.name)) continue;
    const { isError, content } = record.result;
    await commitHealth(ctx, checkResult(ctx.state.health, isError, isError ? content : null));
  }
}
