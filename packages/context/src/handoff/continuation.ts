import type { FailureContext, HandoffWorking } from "./types.js";

// The continuation prompt (docs/design/handoff.md): what the next session is asked to do first. Failure and
// interruption are named so that a resumed agent checks before it repeats a step.

export function buildContinuationPrompt(parts: {
  taskTitle: string;
  hat: string;
  working: HandoffWorking;
  failure: FailureContext | null;
}): string {
  if (parts.working.status === "completed") return [`The task is complete: ${parts.taskTitle}`, parts.working.next_action].join("\n");
  const lines = [`Continue working on: ${parts.taskTitle}`, `Current hat: ${parts.hat}`, `Next step: ${parts.working.next_action}`];
  if (parts.failure !== null) {
    lines.push(`The last attempt failed: ${parts.failure.last_error}`);
    if (parts.failure.recovery_hint) lines.push(`Recovery hint: ${parts.failure.recovery_hint}`);
  }
  const tool = parts.working.last_tool_call;
  if (parts.working.interrupted && tool !== null) {
    lines.push(`The previous iteration stopped during a call to ${tool.name}; check its effect before repeating it.`);
  }
  return lines.join("\n");
}
