import type { ChecklistItem, CheckpointRecord, SessionRecord } from "@hatloop/core";
import { displayStatus } from "../session/liveness.js";

// What the API returns of a session: the documented fields (docs/security.md, "hatloop serve"), never the
// whole row. Left out: local paths, the configuration, the gate baseline, pid, host and lease.

export function publicSession(s: SessionRecord) {
  return {
    id: s.id,
    title: s.title,
    task: s.task,
    status: displayStatus(s),
    stopReason: s.stopReason,
    lastError: s.lastError,
    /** The agent's open question (status waiting), or an answer given and not yet delivered. */
    question: s.question,
    hat: s.hat,
    iteration: s.iteration,
    model: s.model,
    branch: s.branch,
    baseCommit: s.baseCommit,
    headCommit: s.headCommit,
    inPlace: s.inPlace,
    budgets: s.budgets,
    usage: s.usage,
    costUsd: s.costUsd,
    runtimeMs: s.runtimeMs,
    contextTokens: s.contextTokens,
    contextWindow: s.contextWindow,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    startedAt: s.startedAt,
    finishedAt: s.finishedAt,
  };
}

export function publicSessionDetails(s: SessionRecord, checklist: ChecklistItem[], checkpoint: CheckpointRecord | null) {
  return {
    ...publicSession(s),
    checklist: checklist.map((i) => ({ id: i.id, description: i.description, status: i.status, reason: i.reason })),
    lastCheckpoint: checkpoint && {
      seq: checkpoint.seq,
      reason: checkpoint.reason,
      iteration: checkpoint.iteration,
      gitCommit: checkpoint.gitCommit,
      createdAt: checkpoint.createdAt,
    },
  };
}
