import type { ExecutionResult } from "./executor.js";
import type { HealthNotice } from "./health.js";
import { LOOP_TOOL_NAMES } from "./loop-tools.js";
import type { LoopContext } from "./loop-context.js";

/** Every notice is an event; a hint is also told to the model; a stop ends the run before the next iteration. */
export function handleNotices(ctx: LoopContext, notices: HealthNotice[]): void {
  for (const notice of notices) {
    ctx.emitter.emit("health.warning", notice);
    if (notice.level === "hint") ctx.state.notes.push(`Loop health: ${notice.message}. Step back: re-read the error, check your assumptions, try a different approach.`);
    if (notice.level === "stop") ctx.state.healthStop ??= notice.kind;
  }
}

export function recordHealth(ctx: LoopContext, execution: ExecutionResult | null): void {
  for (const record of execution?.records ?? []) {
    if (LOOP_TOOL_NAMES.has(record.call.name)) continue;
    handleNotices(ctx, ctx.health.afterCall(record.result.isError, record.result.isError ? record.result.content : null));
  }
}
