import type { DecisionRecord } from "../memory/items.js";
import type { KeyExchange } from "../memory/thread.js";
import type { ToolCallSummary } from "../memory/working-state.js";
import {
  HANDOFF_SCHEMA,
  HANDOFF_SCHEMA_VERSION,
  type Acceptance,
  type AcceptanceVerdict,
  type BudgetsSnapshot,
  type CommitSummary,
  type Diffstat,
  type FailureContext,
  type Handoff,
  type HandoffStatus,
  type HandoffThread,
  type HandoffWorking,
  type OpenQuestion,
  type UsageSnapshot,
} from "./types.js";

// Shape validation for handoffs read back from JSON, YAML or a checkpoint row. It rebuilds the value
// field by field, so the result has exactly the Handoff keys in a fixed order (which also makes
// rendering deterministic) and an error names the path that is wrong.

export class HandoffFormatError extends Error {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`invalid handoff at ${path}: ${detail}`);
    this.name = "HandoffFormatError";
  }
}

type Obj = Record<string, unknown>;

function obj(value: unknown, path: string): Obj {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new HandoffFormatError(path, "expected an object");
  return value as Obj;
}
function str(value: unknown, path: string): string {
  if (typeof value !== "string") throw new HandoffFormatError(path, "expected a string");
  return value;
}
function num(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw new HandoffFormatError(path, "expected a number");
  return value;
}
function bool(value: unknown, path: string): boolean {
  if (typeof value !== "boolean") throw new HandoffFormatError(path, "expected a boolean");
  return value;
}
function nullable<T>(read: (v: unknown, p: string) => T): (v: unknown, p: string) => T | null {
  return (value, path) => (value === null ? null : read(value, path));
}
function list<T>(read: (v: unknown, p: string) => T): (v: unknown, p: string) => T[] {
  return (value, path) => {
    if (!Array.isArray(value)) throw new HandoffFormatError(path, "expected a list");
    return value.map((item, i) => read(item, `${path}[${i}]`));
  };
}
function oneOf<T extends string>(options: readonly T[]): (v: unknown, p: string) => T {
  return (value, path) => {
    if (typeof value !== "string" || !(options as readonly string[]).includes(value)) {
      throw new HandoffFormatError(path, `expected one of ${options.join(", ")}`);
    }
    return value as T;
  };
}

const strings = list(str);
const STATUSES: readonly HandoffStatus[] = ["in_progress", "idle", "waiting_for_user", "completed"];

function toolCall(v: unknown, p: string): ToolCallSummary {
  const o = obj(v, p);
  return { name: str(o.name, `${p}.name`), params_summary: str(o.params_summary, `${p}.params_summary`) };
}
function working(v: unknown, p: string): HandoffWorking {
  const o = obj(v, p);
  return {
    topic: str(o.topic, `${p}.topic`),
    status: oneOf(STATUSES)(o.status, `${p}.status`),
    interrupted: bool(o.interrupted, `${p}.interrupted`),
    next_action: str(o.next_action, `${p}.next_action`),
    last_tool_call: nullable(toolCall)(o.last_tool_call, `${p}.last_tool_call`),
    // Handoffs written before this field existed have none.
    last_failure: o.last_failure === undefined ? null : nullable(str)(o.last_failure, `${p}.last_failure`),
  };
}
function exchange(v: unknown, p: string): KeyExchange {
  const o = obj(v, p);
  return { role: oneOf(["user", "agent"] as const)(o.role, `${p}.role`), gist: str(o.gist, `${p}.gist`) };
}
function thread(v: unknown, p: string): HandoffThread {
  const o = obj(v, p);
  return { summary: str(o.summary, `${p}.summary`), key_exchanges: list(exchange)(o.key_exchanges, `${p}.key_exchanges`) };
}
function decision(v: unknown, p: string): DecisionRecord {
  const o = obj(v, p);
  return { id: str(o.id, `${p}.id`), what: str(o.what, `${p}.what`), when: nullable(str)(o.when, `${p}.when`) };
}
function diffstat(v: unknown, p: string): Diffstat {
  const o = obj(v, p);
  const file = (f: unknown, fp: string) => {
    const fo = obj(f, fp);
    return {
      path: str(fo.path, `${fp}.path`),
      insertions: num(fo.insertions, `${fp}.insertions`),
      deletions: num(fo.deletions, `${fp}.deletions`),
    };
  };
  return {
    files_changed: num(o.files_changed, `${p}.files_changed`),
    insertions: num(o.insertions, `${p}.insertions`),
    deletions: num(o.deletions, `${p}.deletions`),
    files: list(file)(o.files, `${p}.files`),
  };
}
function commit(v: unknown, p: string): CommitSummary {
  const o = obj(v, p);
  return { sha: str(o.sha, `${p}.sha`), subject: str(o.subject, `${p}.subject`) };
}
function budgets(v: unknown, p: string): BudgetsSnapshot {
  const o = obj(v, p);
  const n = nullable(num);
  return {
    max_iterations: n(o.max_iterations, `${p}.max_iterations`),
    max_tokens: n(o.max_tokens, `${p}.max_tokens`),
    max_cost_usd: n(o.max_cost_usd, `${p}.max_cost_usd`),
    max_runtime_ms: n(o.max_runtime_ms, `${p}.max_runtime_ms`),
  };
}
function usage(v: unknown, p: string): UsageSnapshot {
  const o = obj(v, p);
  const keys = [
    "iteration",
    "input_tokens",
    "output_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "cost_usd",
    "runtime_ms",
    "context_tokens",
    "context_window",
  ] as const;
  const numbers = Object.fromEntries(keys.map((k) => [k, num(o[k], `${p}.${k}`)])) as Record<(typeof keys)[number], number>;
  return { ...numbers, budgets: budgets(o.budgets, `${p}.budgets`) };
}
function failure(v: unknown, p: string): FailureContext {
  const o = obj(v, p);
  return {
    last_error: str(o.last_error, `${p}.last_error`),
    failed_at: nullable(str)(o.failed_at, `${p}.failed_at`),
    recovery_hint: nullable(str)(o.recovery_hint, `${p}.recovery_hint`),
  };
}

function openQuestion(v: unknown, p: string): OpenQuestion {
  const o = obj(v, p);
  return {
    question: str(o.question, `${p}.question`),
    asked_at: str(o.asked_at, `${p}.asked_at`),
    iteration: num(o.iteration, `${p}.iteration`),
    answer: nullable(str)(o.answer, `${p}.answer`),
  };
}

function acceptance(v: unknown, p: string): Acceptance {
  const o = obj(v, p);
  return {
    rounds: num(o.rounds, `${p}.rounds`),
    revisions: num(o.revisions, `${p}.revisions`),
    satisfied: bool(o.satisfied, `${p}.satisfied`),
    verdicts: list(verdict)(o.verdicts, `${p}.verdicts`),
  };
}

function verdict(v: unknown, p: string): AcceptanceVerdict {
  const o = obj(v, p);
  return { criterion: str(o.criterion, `${p}.criterion`), met: bool(o.met, `${p}.met`), reason: str(o.reason, `${p}.reason`) };
}

/** The value as a Handoff, or a HandoffFormatError naming the first wrong path. */
export function validateHandoff(value: unknown): Handoff {
  const o = obj(value, "$");
  if (o.schema !== HANDOFF_SCHEMA) throw new HandoffFormatError("$.schema", `expected "${HANDOFF_SCHEMA}"`);
  if (o.schema_version !== HANDOFF_SCHEMA_VERSION) throw new HandoffFormatError("$.schema_version", `expected ${HANDOFF_SCHEMA_VERSION}`);
  return {
    schema: HANDOFF_SCHEMA,
    schema_version: HANDOFF_SCHEMA_VERSION,
    generated_at: str(o.generated_at, "$.generated_at"),
    task_title: str(o.task_title, "$.task_title"),
    instructions: o.instructions === undefined ? [] : strings(o.instructions, "$.instructions"),
    current_hat: str(o.current_hat, "$.current_hat"),
    branch: str(o.branch, "$.branch"),
    head_commit: str(o.head_commit, "$.head_commit"),
    completed_items: strings(o.completed_items, "$.completed_items"),
    remaining_items: strings(o.remaining_items, "$.remaining_items"),
    blocking_issues: strings(o.blocking_issues, "$.blocking_issues"),
    modified_files: strings(o.modified_files, "$.modified_files"),
    created_files: strings(o.created_files, "$.created_files"),
    deleted_files: strings(o.deleted_files, "$.deleted_files"),
    key_decisions: strings(o.key_decisions, "$.key_decisions"),
    continuation_prompt: str(o.continuation_prompt, "$.continuation_prompt"),
    working: working(o.working, "$.working"),
    thread: thread(o.thread, "$.thread"),
    open_items: strings(o.open_items, "$.open_items"),
    decisions: list(decision)(o.decisions, "$.decisions"),
    learnings: strings(o.learnings, "$.learnings"),
    diffstat: nullable(diffstat)(o.diffstat, "$.diffstat"),
    commits: list(commit)(o.commits, "$.commits"),
    usage: nullable(usage)(o.usage, "$.usage"),
    failure: nullable(failure)(o.failure, "$.failure"),
    open_question: o.open_question === undefined ? null : nullable(openQuestion)(o.open_question, "$.open_question"),
    acceptance: o.acceptance === undefined ? null : nullable(acceptance)(o.acceptance, "$.acceptance"),
  };
}
