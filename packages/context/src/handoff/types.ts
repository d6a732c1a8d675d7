import type { DecisionRecord } from "../memory/items.js";
import type { KeyExchange } from "../memory/thread.js";
import type { ToolCallSummary, WorkingStatus } from "../memory/working-state.js";

// The handoff: everything a person or a fresh session needs to pick the task up. It carries the
// summary fields and the working state (docs/design/handoff.md), thread, open items, decisions and learnings,
// and what git and the loop know (diffstat, commits, usage, failure). Field names are snake_case
// because this is the persisted and served shape (JSON over HTTP, YAML in checkpoints).

export const HANDOFF_SCHEMA = "hatloop/handoff";
export const HANDOFF_SCHEMA_VERSION = 1;

/** Where the work stands; "completed" once the task is complete (its quality gates passed). */
export type HandoffStatus = WorkingStatus | "completed";

export interface HandoffWorking {
  topic: string;
  status: HandoffStatus;
  interrupted: boolean;
  next_action: string;
  last_tool_call: ToolCallSummary | null;
  /** The latest failing tool result, by its failure line (a test's error, a compiler message). */
  last_failure: string | null;
}

export interface HandoffThread {
  summary: string;
  key_exchanges: KeyExchange[];
}

interface DiffstatFile {
  path: string;
  insertions: number;
  deletions: number;
}

export interface Diffstat {
  files_changed: number;
  insertions: number;
  deletions: number;
  files: DiffstatFile[];
}

export interface CommitSummary {
  sha: string;
  subject: string;
}

export interface BudgetsSnapshot {
  max_iterations: number | null;
  max_tokens: number | null;
  max_cost_usd: number | null;
  max_runtime_ms: number | null;
}

export interface UsageSnapshot {
  iteration: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cost_usd: number;
  runtime_ms: number;
  context_tokens: number;
  context_window: number;
  budgets: BudgetsSnapshot;
}

export interface FailureContext {
  last_error: string;
  failed_at: string | null;
  recovery_hint: string | null;
}

export interface Handoff {
  schema: typeof HANDOFF_SCHEMA;
  schema_version: typeof HANDOFF_SCHEMA_VERSION;
  // the summary
  generated_at: string;
  task_title: string;
  /** What the user said after the task (steering), verbatim, newest last. */
  instructions: string[];
  current_hat: string;
  branch: string;
  head_commit: string;
  completed_items: string[];
  remaining_items: string[];
  blocking_issues: string[];
  modified_files: string[];
  created_files: string[];
  deleted_files: string[];
  key_decisions: string[];
  continuation_prompt: string;
  // the working state and the checkpoint sections
  working: HandoffWorking;
  thread: HandoffThread;
  open_items: string[];
  decisions: DecisionRecord[];
  learnings: string[];
  // git and loop facts
  diffstat: Diffstat | null;
  commits: CommitSummary[];
  usage: UsageSnapshot | null;
  failure: FailureContext | null;
  /**
   * The agent's question while the session waits for a person (ask_user); its answer once given and
   * not yet delivered. Filled from the session when the handoff is shown (a checkpoint may be older).
   */
  open_question: OpenQuestion | null;
  /** The grader's latest judgement of the task's acceptance criteria; null when none was graded. */
  acceptance: Acceptance | null;
}

export interface Acceptance {
  /** Gradings so far; the latest one's verdicts follow. */
  rounds: number;
  /** Gradings that sent the work back. */
  revisions: number;
  satisfied: boolean;
  verdicts: AcceptanceVerdict[];
}

export interface AcceptanceVerdict {
  criterion: string;
  met: boolean;
  reason: string;
}

export interface OpenQuestion {
  question: string;
  asked_at: string;
  iteration: number;
  answer: string | null;
}
