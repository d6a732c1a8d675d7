import type { ChecklistItem, SessionRecord } from "@hatloop/core";
import type { Snapshot } from "@hatloop/tui";

/** The TUI's starting point for a session (a watcher may attach long after it started). */
export function snapshotOf(session: SessionRecord, checklist: ChecklistItem[]): Snapshot {
  return {
    id: session.id,
    task: session.task,
    branch: session.branch,
    model: session.model,
    hat: session.hat,
    iteration: session.iteration,
    status: session.status,
    stopReason: session.stopReason,
    question: session.question?.answer === null ? session.question.text : null,
    runtimeMs: session.runtimeMs,
    contextTokens: session.contextTokens,
    contextWindow: session.contextWindow,
    usage: session.usage,
    costUsd: session.costUsd,
    budgets: session.budgets,
    scratchpad: session.scratchpad,
    checklist,
  };
}
