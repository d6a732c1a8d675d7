import type { Message } from "../messages.js";
import type { Acceptance } from "./types.js";
import type { DecisionRecord } from "../memory/items.js";

// What buildHandoff is given. Git facts come from the repository (the caller runs git), never from
// the model; the time is passed in so that the build is a pure, repeatable function.

/** A checklist item's status: the one list the loop, the store, the events and the handoff share. */
export const CHECKLIST_STATUSES = ["pending", "in_progress", "done", "failed", "skipped"] as const;
type ChecklistEntryStatus = (typeof CHECKLIST_STATUSES)[number];

export interface ChecklistEntry {
  id?: string;
  description: string;
  status: ChecklistEntryStatus;
  /** Why it failed or was skipped. */
  reason?: string | null;
}

export interface GitFacts {
  branch: string;
  headCommit: string;
  modifiedFiles: readonly string[];
  createdFiles: readonly string[];
  deletedFiles?: readonly string[];
  diffstat?: {
    filesChanged: number;
    insertions: number;
    deletions: number;
    files?: ReadonlyArray<{ path: string; insertions: number; deletions: number }>;
  } | null;
  /** Commits made on the task branch, oldest first. */
  commits?: ReadonlyArray<{ sha: string; subject: string }>;
}

/** Structurally the same as core's Usage and Budgets, so a session record can be passed as is. */
export interface UsageInput {
  iteration: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  runtimeMs: number;
  contextTokens: number;
  contextWindow: number;
  budgets?: {
    maxIterations: number | null;
    maxTokens: number | null;
    maxCostUsd: number | null;
    maxRuntimeMs: number | null;
  };
}

export interface FailureInput {
  lastError: string;
  failedAt?: string | null;
  recoveryHint?: string | null;
}

export interface HandoffInputs {
  /** ISO time of the handoff. */
  generatedAt: string;
  task: { title: string };
  /** The user's instructions after the task (steering messages), oldest first. */
  instructions?: readonly string[];
  hat: string;
  checklist?: readonly ChecklistEntry[];
  /** The scratchpad markdown (see parseScratchpad). */
  scratchpad?: string;
  git: GitFacts;
  /** The messages of the live context (or the latest iterations). */
  messages?: readonly Message[];
  /** The running decisions set; scratchpad and extracted decisions are merged into it. */
  decisions?: readonly DecisionRecord[];
  /** The running open items; those found in recent assistant text are merged into it. */
  openItems?: readonly string[];
  /** The previous handoff's last failure: kept while the live context no longer shows a newer one. */
  lastFailure?: string | null;
  learnings?: readonly string[];
  usage?: UsageInput | null;
  failure?: FailureInput | null;
  /** The grader's latest judgement of the acceptance criteria (see Acceptance). */
  acceptance?: Acceptance | null;
  /** The task is complete (its quality gates passed): the working state is closed, not carried on. */
  completed?: boolean;
}

/**
 * What a handoff passes on to the next one's inputs (same names): the running decisions, open items
 * and last failure, which must outlive the compaction that drops their source from the live context.
 */
export interface HandoffCarry {
  decisions: DecisionRecord[];
  openItems: string[];
  lastFailure: string | null;
}
