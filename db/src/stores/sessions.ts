import { and, desc, eq, inArray, isNotNull, isNull, like, lt, or, sql } from "drizzle-orm";
import { LeaseLostError, type NewSession, type SessionPatch, type SessionRecord, type SessionStore, type Usage } from "@hatloop/core";
import type { Db } from "../db.js";
import type { Fence } from "../fence.js";
import { escapeJson } from "../stored-value.js";
import { sessions } from "../schema.js";

type Row = typeof sessions.$inferSelect;

export function toRecord(row: Row): SessionRecord {
  return {
    id: row.id,
    task: row.task,
    title: row.title,
    repoPath: row.repoPath,
    worktreePath: row.worktreePath,
    branch: row.branch,
    baseCommit: row.baseCommit,
    headCommit: row.headCommit,
    inPlace: row.inPlace === 1,
    hat: row.hat,
    status: row.status,
    stopReason: row.stopReason,
    lastError: row.lastError,
    model: row.model,
    iteration: row.iteration,
    budgets: {
      maxIterations: row.maxIterations,
      maxTokens: row.maxTokens,
      maxCostUsd: row.maxCostUsd,
      maxRuntimeMs: row.maxRuntimeMs,
    },
    usage: {
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      cacheReadTokens: row.cacheReadTokens,
      cacheWriteTokens: row.cacheWriteTokens,
    },
    costUsd: row.costUsd,
    runtimeMs: row.runtimeMs,
    contextTokens: row.contextTokens,
    contextWindow: row.contextWindow,
    scratchpad: row.scratchpad,
    question: row.question ?? null,
    config: row.config,
    gateBaseline: row.gateBaseline ?? null,
    pid: row.pid,
    host: row.host,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    heartbeatAt: row.heartbeatAt,
    lease: { epoch: row.leaseEpoch, holder: row.leaseHolder, expiresAt: row.leaseExpiresAt },
  };
}

function toColumns(patch: SessionPatch): Partial<typeof sessions.$inferInsert> {
  const { budgets, usage, inPlace, ...rest } = patch;
  return {
    ...rest,
    ...(inPlace === undefined ? {} : { inPlace: inPlace ? 1 : 0 }),
    ...(budgets ?? {}),
    ...(usage ?? {}),
  };
}

/** now() + ms, computed by the database so every runner measures leases on one clock. */
const inMs = (ms: number) => sql`now() + ${ms}::double precision * interval '1 millisecond'`;

export function sessionStore(db: Db, fence?: Fence): SessionStore {
  // A fenced runner changes its session's row only while it holds the lease.
  const target = (id: string) =>
    fence && fence.sessionId === id ? and(eq(sessions.id, id), eq(sessions.leaseEpoch, fence.epoch)) : eq(sessions.id, id);
  const fenced = (id: string, changed: unknown[]) => {
    if (fence && fence.sessionId === id && changed.length === 0) throw new LeaseLostError(id);
  };
  return {
    async create(session: NewSession) {
      const [row] = await db
        .insert(sessions)
        .values({ ...toColumns(session), id: session.id, task: session.task, repoPath: session.repoPath } as typeof sessions.$inferInsert)
        .returning();
      return toRecord(row!);
    },
    async get(id) {
      const [row] = await db.select().from(sessions).where(eq(sessions.id, id));
      return row ? toRecord(row) : null;
    },
    async resolve(idOrPrefix) {
      const exact = await this.get(idOrPrefix);
      if (exact) return { session: exact };
      const escaped = idOrPrefix.replace(/[\\%_]/g, (c) => `\\${c}`);
      const rows = await db
        .select()
        .from(sessions)
        .where(like(sessions.id, `${escaped}%`))
        .limit(10);
      if (rows.length === 0) return null;
      if (rows.length === 1) return { session: toRecord(rows[0]!) };
      return { ambiguous: rows.map((r) => r.id) };
    },
    async list(options = {}) {
      const rows = await db
        .select()
        .from(sessions)
        .where(options.status?.length ? inArray(sessions.status, options.status) : undefined)
        .orderBy(desc(sessions.createdAt), desc(sessions.id))
        .limit(options.limit ?? 100);
      return rows.map(toRecord);
    },
    async update(id, patch) {
      const changed = await db
        .update(sessions)
        .set({ ...toColumns(patch), updatedAt: sql`now()` })
        .where(target(id))
        .returning({ id: sessions.id });
      fenced(id, changed);
    },
    async addUsage(id, usage: Usage, costUsd) {
      const changed = await db
        .update(sessions)
        .set({
          inputTokens: sql`${sessions.inputTokens} + ${usage.inputTokens}`,
          outputTokens: sql`${sessions.outputTokens} + ${usage.outputTokens}`,
          cacheReadTokens: sql`${sessions.cacheReadTokens} + ${usage.cacheReadTokens}`,
          cacheWriteTokens: sql`${sessions.cacheWriteTokens} + ${usage.cacheWriteTokens}`,
          costUsd: sql`${sessions.costUsd} + ${costUsd}`,
          updatedAt: sql`now()`,
        })
        .where(target(id))
        .returning({ id: sessions.id });
      fenced(id, changed);
    },
    async delete(id) {
      await db.delete(sessions).where(eq(sessions.id, id));
    },
    async acquireLease(id, holder, ttlMs, options = {}) {
      const free = or(
        isNull(sessions.leaseExpiresAt),
        lt(sessions.leaseExpiresAt, sql`now()`),
        options.takeOverFrom ? eq(sessions.leaseHolder, options.takeOverFrom) : undefined,
      );
      const [row] = await db
        .update(sessions)
        .set({ leaseEpoch: sql`${sessions.leaseEpoch} + 1`, leaseHolder: holder, leaseExpiresAt: inMs(ttlMs), heartbeatAt: sql`now()` })
        .where(and(eq(sessions.id, id), free))
        .returning({ epoch: sessions.leaseEpoch });
      return row?.epoch ?? null;
    },
    async renewLease(id, epoch, ttlMs) {
      const renewed = await db
        .update(sessions)
        .set({ leaseExpiresAt: inMs(ttlMs), heartbeatAt: sql`now()` })
        .where(and(eq(sessions.id, id), eq(sessions.leaseEpoch, epoch)))
        .returning({ id: sessions.id });
      return renewed.length > 0;
    },
    async releaseLease(id, epoch) {
      await db
        .update(sessions)
        .set({ leaseExpiresAt: null, leaseHolder: null })
        .where(and(eq(sessions.id, id), eq(sessions.leaseEpoch, epoch)));
    },
    async answer(id, answer, answeredBy) {
      const given = { answer, answeredAt: new Date().toISOString(), answeredBy };
      // Only an open question takes an answer, checked in the statement itself: a second answer finds it given.
      const [row] = await db
        .update(sessions)
        .set({ question: sql`${sessions.question} || ${JSON.stringify(escapeJson(given))}::jsonb`, updatedAt: sql`now()` })
        .where(and(eq(sessions.id, id), isNotNull(sessions.question), sql`${sessions.question}->>'answer' is null`))
        .returning({ id: sessions.id });
      if (row) return "answered";
      const current = await this.get(id);
      if (!current) return "no-session";
      return current.question ? "already-answered" : "no-question";
    },
  };
}
