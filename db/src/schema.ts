import { sql } from "drizzle-orm";
import {
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

// The whole data model. Column names are snake_case in SQL (drizzle `casing`), camelCase in code.
// Rows that must never change (messages, checkpoints) are guarded by triggers in a custom migration.

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });
const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

export const sessionStatus = pgEnum("session_status", ["pending", "running", "paused", "completed", "failed", "stopped"]);
export const checkpointReason = pgEnum("checkpoint_reason", [
  "start",
  "interval",
  "warn-threshold",
  "compaction",
  "hat-change",
  "budget",
  "failure",
  "pause",
  "completion",
]);
export const checklistStatus = pgEnum("checklist_status", ["pending", "in_progress", "done", "failed", "skipped"]);
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
    config: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    gateBaseline: jsonb().$type<unknown>(),
    pid: integer(),
    /** Host of the process running the session: its pid only means something there. */
    host: text(),
    createdAt: createdAt(),
    updatedAt: createdAt(),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
    heartbeatAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("sessions_created_idx").on(t.createdAt), index("sessions_status_idx").on(t.status)],
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
    kind: text().$type<"conversation" | "injected">().notNull().default("conversation"),
    content: jsonb().$type<unknown>().notNull(),
    tokenEstimate: integer().notNull(),
    createdAt: createdAt(),
    // Every string value of the content (text, tool inputs, tool results), for recall.
    search: tsvector().generatedAlwaysAs(sql`jsonb_to_tsvector('english'::regconfig, content, '["string"]'::jsonb)`),
  },
  (t) => [
    uniqueIndex("messages_session_seq_uq").on(t.sessionId, t.seq),
    index("messages_search_idx").using("gin", t.search),
  ],
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
    summary: text(),
    lastError: text(),
    failedAt: text(),
    recoveryHint: text(),
    usage: jsonb().$type<unknown>().notNull(),
    state: jsonb().$type<unknown>().notNull(),
    handoff: jsonb().$type<unknown>(),
    gitCommit: text(),
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
    updatedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.itemId] })],
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

export const schema = { sessions, messages, checkpoints, events, checklistItems, memories, sessionStatus, checkpointReason, checklistStatus, memoryStatus };
