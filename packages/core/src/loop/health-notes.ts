import { apply } from "./apply.js";
import type { ExecutionResult } from "./execution.js";
import type { HealthNotice } from "./health.js";
import { LOOP_TOOL_NAMES } from "./loop-tools.js";
import type { LoopContext } from "./loop-context.js";

/** Every notice is an event; a hint is also told to the model; a stop ends the run before the next iteration. */
export function handleNotices(ctx: LoopContext, notices: HealthNotice[]): void {
  if (notices.length === 0) return;
  for (const notice of notices) ctx.emitter.emit("health.warning", notice);
  apply(ctx.state, { type: "health-noticed", notices });
}

export function recordHealth(ctx: LoopContext, execution: ExecutionResult | null): void {
  for (const record of execution?.records ?? []) {
    if (LOOP_TOOL_NAMES.has(record.call.name)) continue;
    handleNotices(ctx, ctx.health.afterCall(record.result.isError, record.result.isError ? record.result.content : null));
  }
}
