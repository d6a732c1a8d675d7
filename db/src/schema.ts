import { sql } from "drizzle-orm";
import {
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  json,
  pgEnum,
  pgTable,
  primaryKey,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { CHECKLIST_STATUSES, CHECKPOINT_REASONS, SESSION_STATUSES, type Question, type Usage, type Verdict } from "@hatloop/core";
import { storedJson as jsonb, storedText as text } from "./stored-columns.js";

// The whole data model. Column names are snake_case in SQL (drizzle `casing`), camelCase in code.
// Rows that must never change (messages, checkpoints) are guarded by triggers in a custom migration.
// Every text and jsonb column is a stored-columns.ts type: any string, NUL included, is storable.

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });
const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

// The enums' values are core's lists (one source); a value added there needs a migration here.
export const sessionStatus = pgEnum("session_status", SESSION_STATUSES);
export const checkpointReason = pgEnum("checkpoint_reason", CHECKPOINT_REASONS);
export const checklistStatus = pgEnum("checklist_status", CHECKLIST_STATUSES);
export const memoryStatus = pgEnum("memory_status", ["active", "superseded"]);

export const sessions = pgTable(
  "sessions",
  {
    id: text().primaryKey(),
    task: text().notNull(),
    title: text().notNull(),
    repoPath: text().notNull(),
    worktreePath: text().notNull(),
    branch: text().notNull(),
    baseCommit: text().notNull(),
    headCommit: text(),
    inPlace: integer().notNull().default(0),
    hat: text().notNull(),
    status: sessionStatus().notNull().default("pending"),
    stopReason: text(),
    lastError: text(),
    model: text().notNull(),
    iteration: integer().notNull().default(0),
    // Budgets: null means unlimited.
    maxIterations: integer(),
    maxTokens: integer(),
    maxCostUsd: doublePrecision(),
    maxRuntimeMs: integer(),
    // Usage totals, kept current while the loop runs.
    inputTokens: integer().notNull().default(0),
    outputTokens: integer().notNull().default(0),
    cacheReadTokens: integer().notNull().default(0),
    cacheWriteTokens: integer().notNull().default(0),
    costUsd: doublePrecision().notNull().default(0),
    runtimeMs: integer().notNull().default(0),
    contextTokens: integer().notNull().default(0),
    contextWindow: integer().notNull().default(200_000),
    scratchpad: text().notNull().default(""),
    /** The agent's open question (ask_user) and its answer, until delivered to the loop. */
    question: jsonb().$type<Question>(),
    config: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    gateBaseline: jsonb().$type<unknown>(),
    pid: integer(),
    /** Host of the process running the session: its pid only means something there. */
    host: text(),
    // The lease: one runner per session. A runner takes it (epoch + 1), renews it before it expires,
    // and every write it makes is conditional on the epoch it holds (fencing): a runner that lost it
    // can write nothing more.
    leaseEpoch: integer().notNull().default(0),
    leaseHolder: text(),
    leaseExpiresAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: createdAt(),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
    heartbeatAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("sessions_created_idx").on(t.createdAt),
    index("sessions_status_idx").on(t.status),
    // ls --repo, on either database (a fleet session's repo_path is its repository's URL).
    index("sessions_repo_idx").on(t.repoPath, t.createdAt),
  ],
);

export const messages = pgTable(
  "messages",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    seq: integer().notNull(),
    iteration: integer().notNull(),
    hat: text().notNull(),
    role: text().$type<"user" | "assistant">().notNull(),
    // conversation | injected (resume packets, summaries, recalled context, steering).
    kind: text().$type<"conversation" | "injected" | "archived">().notNull().default("conversation"),
    content: jsonb().$type<unknown>().notNull(),
    tokenEstimate: integer().notNull(),
    // The writer's lease epoch (null: written outside a run); a trigger refuses a stale one (0004).
    leaseEpoch: integer(),
    createdAt: createdAt(),
    // Every string value of the content (text, tool inputs, tool results), for recall: as many words
    // as one tsvector holds, never an error (hatloop_search_vector, migration 0005).
    search: tsvector().generatedAlwaysAs(sql`hatloop_search_vector(content)`),
  },
  (t) => [uniqueIndex("messages_session_seq_uq").on(t.sessionId, t.seq), index("messages_search_idx").using("gin", t.search)],
);

export const checkpoints = pgTable(
  "checkpoints",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    seq: integer().notNull(),
    reason: checkpointReason().notNull(),
    iteration: integer().notNull(),
    hat: text().notNull(),
    scratchpad: text().notNull(),
    // The live context as references into `messages` (seq ranges plus per-message transforms), never copies.
    context: jsonb().$type<unknown>().notNull(),
    contextTokens: integer().notNull(),
    lastError: text(),
    failedAt: text(),
    recoveryHint: text(),
    usage: jsonb().$type<unknown>().notNull(),
    state: jsonb().$type<unknown>().notNull(),
    handoff: jsonb().$type<unknown>(),
    gitCommit: text(),
    // The writer's lease epoch (null: written outside a run); a trigger refuses a stale one (0004).
    leaseEpoch: integer(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("checkpoints_session_seq_uq").on(t.sessionId, t.seq)],
);

export const events = pgTable(
  "events",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    iteration: integer().notNull(),
    type: text().notNull(),
    payload: jsonb().$type<unknown>().notNull(),
    // The event schema version the writer used (core's EVENT_VERSION); null: written before events
    // were versioned, read as version 1.
    version: integer(),
    // The writer's lease epoch (null: written outside a run); a trigger refuses a stale one (0004).
    leaseEpoch: integer(),
    createdAt: createdAt(),
  },
  (t) => [index("events_session_id_idx").on(t.sessionId, t.id)],
);

export const checklistItems = pgTable(
  "checklist_items",
  {
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    itemId: text().notNull(),
    position: integer().notNull(),
    description: text().notNull(),
    status: checklistStatus().notNull().default("pending"),
    reason: text(),
    // The writer's lease epoch (null: written outside a run); a trigger refuses a stale one (0004).
    leaseEpoch: integer(),
    updatedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.itemId] })],
);

/**
 * The grader's judgements of a session's acceptance criteria, one row per grading at task_complete
 * (loop/grading.ts in core): a verdict per criterion, and what the grader's call cost. Unsatisfied
 * rows are the revisions the session has had, counted again on resume.
 */
export const grades = pgTable(
  "grades",
  {
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    round: integer().notNull(),
    iteration: integer().notNull(),
    satisfied: boolean().notNull(),
    verdicts: jsonb().$type<Verdict[]>().notNull(),
    model: text().notNull(),
    usage: jsonb().$type<Usage>().notNull(),
    costUsd: doublePrecision().notNull(),
    // The writer's lease epoch (null: written outside a run); a trigger refuses a stale one (0004).
    leaseEpoch: integer(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.round] })],
);

export const memories = pgTable(
  "memories",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    sessionId: text().references(() => sessions.id, { onDelete: "set null" }),
    repoPath: text().notNull(),
    // memory: typed notes from MEMORY signals; fact: knowledge facts keyed for UPDATE/SUPERSEDE.
    kind: text().$type<"memory" | "fact">().notNull(),
    type: text().notNull(),
    key: text(),
    content: text().notNull(),
    confidence: doublePrecision().notNull().default(0.6),
    source: text().notNull(),
    status: memoryStatus().notNull().default("active"),
    supersededBy: integer(),
    iteration: integer(),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (t) => [index("memories_repo_idx").on(t.repoPath, t.status), index("memories_key_idx").on(t.repoPath, t.key)],
);

/**
 * One row per write, inserted by the write itself: a retry after a broken connection finds out
 * whether the first attempt committed, and what it returned (src/resilience/receipts.ts).
 */
export const writeReceipts = pgTable(
  "write_receipts",
  {
    id: text().primaryKey(),
    // json, not jsonb: the returned columns keep their order.
    result: json(),
    createdAt: createdAt(),
  },
  (t) => [index("write_receipts_created_idx").on(t.createdAt)],
);

/**
 * A session's fleet side (hatloop submit / worker / stop): the repository it travels with, the worker
 * that last took it, and a stop asked for from any machine (polled by whoever runs the session). The
 * queue itself is pg-boss's, in its own schema; this row is hatloop's.
 */
export const fleetSessions = pgTable(
  "fleet_sessions",
  {
    sessionId: text()
      .primaryKey()
      .references(() => sessions.id, { onDelete: "cascade" }),
    /** The repository's URL or path as given to submit; null for a session run with `hatloop run`. */
    repoUrl: text(),
    /** The pg-boss job that carries the session (the latest one queued). */
    jobId: text(),
    /** The worker that took it last (its --name). */
    worker: text(),
    stopRequestedAt: timestamp({ withTimezone: true }),
    /** submit --priority: higher runs first (pg-boss's job priority); every re-queue keeps it. */
    priority: integer().notNull().default(0),
    /** submit --base: the remote's branch it starts from; null: the one the remote's HEAD names. */
    base: text(),
    /** The schedule (hatloop schedule) whose firing created it; null: submitted by hand. */
    schedule: text(),
    /** Failed starts in a row (clone, fetch, base branch): retried with backoff up to fleet.startRetries. */
    startAttempts: integer().notNull().default(0),
    /** Why the last start failed. */
    startError: text(),
    /** Set when its starts ran out: out of the queue until `hatloop retry`. */
    deadLetteredAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("fleet_sessions_worker_idx").on(t.worker),
    index("fleet_sessions_repo_idx").on(t.repoUrl),
    index("fleet_sessions_schedule_idx").on(t.schedule, t.createdAt),
    index("fleet_sessions_dead_idx").on(t.deadLetteredAt),
  ],
);

/**
 * The fleet's workers as data (hatloop worker): one row per worker process, inserted at its start,
 * heartbeated while it runs, marked stopped when it exits. A row whose heartbeat is older than a few
 * intervals belongs to a worker that died without saying so ("lost", derived when read).
 */
export const workers = pgTable(
  "workers",
  {
    id: text().primaryKey(),
    /** Its --name: the name sessions show as their worker. */
    name: text().notNull(),
    host: text().notNull(),
    pid: integer().notNull(),
    concurrency: integer().notNull(),
    /** Sessions it runs now. */
    running: integer().notNull().default(0),
    /** Sessions it took over from another runner (one that crashed, drained or lost its lease). */
    takeovers: integer().notNull().default(0),
    state: text().$type<"running" | "draining" | "stopped">().notNull().default("running"),
    startedAt: createdAt(),
    heartbeatAt: createdAt(),
    stoppedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("workers_heartbeat_idx").on(t.heartbeatAt), index("workers_name_idx").on(t.name)],
);

export const schema = {
  sessions,
  messages,
  checkpoints,
  events,
  checklistItems,
  grades,
  memories,
  fleetSessions,
  workers,
  sessionStatus,
  checkpointReason,
  checklistStatus,
  memoryStatus,
};
