import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { NewSession, SessionRecord } from "@hatloop/core";
import type { Db } from "../db.js";
import { drizzle as drizzleProxy } from "drizzle-orm/pg-proxy";
import type postgres from "postgres";
import { fleetSessions, schema } from "../schema.js";
import { sessionStore } from "./sessions.js";
import { hasQueue, rowsOf } from "./session-listing.js";

// The fleet's rows (hatloop submit / worker / stop). The queue is pg-boss's, in its own schema on the
// same database (see apps/cli/src/fleet); what is read of it here is one query on its job table, so
// `ls` and `show` need no queue client.

export interface FleetRow {
  sessionId: string;
  repoUrl: string | null;
  jobId: string | null;
  worker: string | null;
  stopRequestedAt: Date | null;
  /** Higher runs first. */
  priority: number;
  /** The branch it starts from; null: the remote's HEAD. */
  base: string | null;
  /** The schedule whose firing created it. */
  schedule: string | null;
  /** Failed starts in a row. */
  startAttempts: number;
  startError: string | null;
  deadLetteredAt: Date | null;
}

/** What a fleet session is submitted with besides its session row. */
export interface FleetSubmission {
  repoUrl: string;
  priority: number;
  base: string | null;
  schedule: string | null;
}

/** The state of a session's live pg-boss job: queued (created or retry) or active; null: none. */
export type QueueState = "queued" | "active";

export interface FleetStore {
  get(sessionId: string): Promise<FleetRow | null>;
  /** Rows of these sessions, with the state of each one's live job in `queue` (pg-boss schema). */
  list(sessionIds: string[], queue: { schema: string; name: string }): Promise<Array<FleetRow & { queueState: QueueState | null }>>;
  setJob(sessionId: string, jobId: string | null): Promise<void>;
  setWorker(sessionId: string, worker: string | null): Promise<void>;
  /** Asks whoever runs the session to stop (any session, fleet or not); idempotent. */
  requestStop(sessionId: string): Promise<void>;
  clearStop(sessionId: string): Promise<void>;
  /** Those of `sessionIds` whose stop was asked for, with when it was. */
  stopsRequested(sessionIds: string[]): Promise<Map<string, Date>>;
  /**
   * Counts a failed start (one statement): dead-letters the session when this is the `limit`th in a
   * row. Returns the attempts so far and whether it is dead-lettered now.
   */
  startFailed(sessionId: string, error: string, limit: number): Promise<{ attempts: number; deadLettered: boolean }>;
  /** A start went through: the count of failed ones begins again, the last one's error goes. */
  startSucceeded(sessionId: string): Promise<void>;
  /** Takes a dead-lettered session out of the dead letters (attempts from zero); false if it was not. */
  revive(sessionId: string): Promise<boolean>;
  /** Every live job of the queue: its session and state (created, retry, active); none without the queue. */
  liveJobs(queue: { schema: string; name: string }): Promise<Array<{ sessionId: string; state: "created" | "retry" | "active" }>>;
  /** The dead-lettered sessions, the latest first. */
  deadLettered(limit: number): Promise<string[]>;
  /** The newest session each of these schedules created. */
  lastFirings(schedules: string[]): Promise<Map<string, { sessionId: string; at: Date }>>;
}

export function fleetStore(db: Db): FleetStore {
  return {
    async get(sessionId) {
      const [row] = await db.select().from(fleetSessions).where(eq(fleetSessions.sessionId, sessionId));
      return row ? toRow(row) : null;
    },
    async list(sessionIds, queue) {
      if (sessionIds.length === 0) return [];
      const rows = await db.select().from(fleetSessions).where(inArray(fleetSessions.sessionId, sessionIds));
      const states = new Map<string, QueueState>();
      if (await hasQueue(db, queue)) {
        const jobs = rowsOf<{ key: string; state: string }>(
          await db.execute(
            sql`select singleton_key as key, state::text as state from ${sql.identifier(queue.schema)}.job where name = ${queue.name} and singleton_key in ${sessionIds} and state in ('created', 'retry', 'active')`,
          ),
        );
        for (const job of jobs) states.set(job.key, job.state === "active" ? "active" : "queued");
      }
      return rows.map((row) => ({ ...toRow(row), queueState: states.get(row.sessionId) ?? null }));
    },
    async setJob(sessionId, jobId) {
      await db.update(fleetSessions).set({ jobId }).where(eq(fleetSessions.sessionId, sessionId));
    },
    async setWorker(sessionId, worker) {
      await db.update(fleetSessions).set({ worker }).where(eq(fleetSessions.sessionId, sessionId));
    },
    async requestStop(sessionId) {
      await db
        .insert(fleetSessions)
        .values({ sessionId, stopRequestedAt: sql`now()` })
        .onConflictDoUpdate({ target: fleetSessions.sessionId, set: { stopRequestedAt: sql`now()` } });
    },
    async clearStop(sessionId) {
      await db.update(fleetSessions).set({ stopRequestedAt: null }).where(eq(fleetSessions.sessionId, sessionId));
    },
    async stopsRequested(sessionIds) {
      if (sessionIds.length === 0) return new Map();
      const rows = await db
        .select({ id: fleetSessions.sessionId, at: fleetSessions.stopRequestedAt })
        .from(fleetSessions)
        .where(and(inArray(fleetSessions.sessionId, sessionIds), isNotNull(fleetSessions.stopRequestedAt)));
      return new Map(rows.map((r) => [r.id, r.at!]));
    },
    async startFailed(sessionId, error, limit) {
      const attempts = sql`${fleetSessions.startAttempts} + 1`;
      const [row] = await db
        .update(fleetSessions)
        .set({
          startAttempts: attempts,
          startError: error,
          deadLetteredAt: sql`case when ${attempts} >= ${limit} then now() else null end`,
        })
        .where(eq(fleetSessions.sessionId, sessionId))
        .returning({ attempts: fleetSessions.startAttempts, dead: fleetSessions.deadLetteredAt });
      return { attempts: row?.attempts ?? 0, deadLettered: row?.dead != null };
    },
    async startSucceeded(sessionId) {
      await db
        .update(fleetSessions)
        .set({ startAttempts: 0, startError: null })
        .where(
          and(eq(fleetSessions.sessionId, sessionId), sql`(${fleetSessions.startAttempts} > 0 or ${fleetSessions.startError} is not null)`),
        );
    },
    async revive(sessionId) {
      const rows = await db
        .update(fleetSessions)
        .set({ deadLetteredAt: null, startAttempts: 0 })
        .where(and(eq(fleetSessions.sessionId, sessionId), isNotNull(fleetSessions.deadLetteredAt)))
        .returning({ id: fleetSessions.sessionId });
      return rows.length > 0;
    },
    async liveJobs(queue) {
      if (!(await hasQueue(db, queue))) return [];
      return rowsOf<{ sessionId: string; state: "created" | "retry" | "active" }>(
        await db.execute(
          sql`select singleton_key as "sessionId", state::text as state from ${sql.identifier(queue.schema)}.job where name = ${queue.name} and state in ('created', 'retry', 'active') and singleton_key is not null order by priority desc, created_on`,
        ),
      );
    },
    async deadLettered(limit) {
      const rows = await db
        .select({ id: fleetSessions.sessionId })
        .from(fleetSessions)
        .where(isNotNull(fleetSessions.deadLetteredAt))
        .orderBy(desc(fleetSessions.deadLetteredAt))
        .limit(limit);
      return rows.map((r) => r.id);
    },
    async lastFirings(schedules) {
      if (schedules.length === 0) return new Map();
      const rows = await db
        .selectDistinctOn([fleetSessions.schedule], {
          schedule: fleetSessions.schedule,
          sessionId: fleetSessions.sessionId,
          at: fleetSessions.createdAt,
        })
        .from(fleetSessions)
        .where(inArray(fleetSessions.schedule, schedules))
        .orderBy(fleetSessions.schedule, desc(fleetSessions.createdAt));
      return new Map(rows.map((r) => [r.schedule!, { sessionId: r.sessionId, at: r.at }]));
    },
  };
}

/**
 * The delay before the job of a session whose start failed is tried again: pg-boss computes a failed
 * job's next start from the job row's own retry_delay, which is 0 for a session's job (a drained
 * session goes back at once), so a start failure sets it just before the job is failed, and a start
 * that goes through sets it back to 0.
 */
export async function setRetryDelay(db: Db, queue: { schema: string; name: string }, jobId: string, seconds: number): Promise<void> {
  await db.execute(
    sql`update ${sql.identifier(queue.schema)}.job set retry_delay = ${seconds}, retry_backoff = false where name = ${queue.name} and id = ${jobId}::uuid`,
  );
}

/** A parameterised statement for a queue client that runs on the caller's transaction (pg-boss `db`). */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Creates a fleet session in one transaction on its own connection to `url`: the session row, its
 * fleet row and, through `enqueue` (given this transaction as an executor), its job. If any part
 * fails, none of it is kept.
 */
export async function submitSession(
  url: string,
  session: NewSession,
  fleet: FleetSubmission,
  enqueue: (tx: SqlExecutor) => Promise<string | null>,
): Promise<{ session: SessionRecord; jobId: string }> {
  // Loaded here, so that a process on the embedded database never loads postgres.js.
  const [{ default: connect }, { drizzle: drizzlePostgres }] = await Promise.all([import("postgres"), import("drizzle-orm/postgres-js")]);
  const client = connect(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  drizzlePostgres({ client }); // the same parsers as the pool's (postgres-client.ts)
  try {
    return await client.begin(async (tx) => {
      const db = drizzleProxy(
        async (text, params, method) => {
          const query = tx.unsafe(text, params as postgres.ParameterOrJSON<never>[]);
          return { rows: (method === "all" ? await query.values() : await query) as unknown[] };
        },
        { schema, casing: "snake_case" },
      ) as unknown as Db;
      const created = await sessionStore(db).create(session);
      const jobId = await enqueue({
        executeSql: async (text, values = []) => ({ rows: [...(await tx.unsafe(text, values as postgres.ParameterOrJSON<never>[]))] }),
      });
      if (!jobId) throw new Error(`session ${session.id} is already queued`);
      await db.insert(fleetSessions).values({ sessionId: session.id, ...fleet, jobId });
      return { session: created, jobId };
    });
  } finally {
    await client.end({ timeout: 5 });
  }
}

/**
 * One of `limit` slots of a repository across all workers (fleet.maxPerRepo), or null when all are
 * taken: a session-level advisory lock (keyed by the repository URL and the slot number) on a
 * connection of its own, so a worker that dies gives its slot back with its connection. pg-boss's
 * group concurrency keeps most jobs of a full repository in the queue, but two fetches at the same
 * moment can both pass it; the slot is what holds.
 */
export async function takeRepoSlot(
  url: string,
  repoUrl: string,
  limit: number,
): Promise<{ slot: number; release(): Promise<void> } | null> {
  const { default: connect } = await import("postgres");
  const client = connect(url, { max: 1, onnotice: () => {}, connect_timeout: 10, idle_timeout: 0 });
  try {
    for (let slot = 0; slot < limit; slot++) {
      const [row] = await client<
        Array<{ got: boolean }>
      >`select pg_try_advisory_lock(hashtext(${`hatloop-repo:${repoUrl}`}), ${slot}) as got`;
      if (row?.got) return { slot, release: () => client.end({ timeout: 5 }) };
    }
  } catch (error) {
    await client.end({ timeout: 5 });
    throw error;
  }
  await client.end({ timeout: 5 });
  return null;
}

function toRow(row: typeof fleetSessions.$inferSelect): FleetRow {
  return {
    sessionId: row.sessionId,
    repoUrl: row.repoUrl,
    jobId: row.jobId,
    worker: row.worker,
    stopRequestedAt: row.stopRequestedAt,
    priority: row.priority,
    base: row.base,
    schedule: row.schedule,
    startAttempts: row.startAttempts,
    startError: row.startError,
    deadLetteredAt: row.deadLetteredAt,
  };
}
