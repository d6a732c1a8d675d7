import { and, desc, eq, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import type { SessionRecord, SessionStatus } from "@hatloop/core";
import type { Db } from "../db.js";
import { fleetSessions, sessions } from "../schema.js";
import { toRecord } from "./sessions.js";

// What `ls` (and the web console's session list) reads: sessions filtered by stored status, worker
// and repository, newest first, and the cost and status totals under the table. Both work on the
// embedded database too, which has fleet_sessions (empty) but no queue schema. The statuses a person
// sees (queued, dead-lettered, interrupted) are decided by the caller from what these return.

export interface SessionFilter {
  /** Stored statuses; absent: any. */
  statuses?: readonly SessionStatus[];
  /** Only those the worker of this name took last. */
  worker?: string;
  /** Only those of this repository (a fleet session's URL, or a local session's repository path). */
  repo?: string;
  /** Only dead-lettered fleet sessions. */
  deadLettered?: boolean;
  /** Only these sessions (the web console's rows that changed). */
  ids?: readonly string[];
}

/** One page of the sessions that pass `filter`, newest first. */
export async function filteredSessions(db: Db, filter: SessionFilter, page: { limit: number; offset: number }): Promise<SessionRecord[]> {
  const rows = await db
    .select({ session: sessions })
    .from(sessions)
    .leftJoin(fleetSessions, eq(fleetSessions.sessionId, sessions.id))
    .where(and(...conditions(filter)))
    .orderBy(desc(sessions.createdAt), desc(sessions.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((r) => toRecord(r.session));
}

function conditions(filter: SessionFilter): SQL[] {
  const where: SQL[] = [];
  if (filter.statuses) where.push(inArray(sessions.status, [...filter.statuses]));
  if (filter.ids) where.push(inArray(sessions.id, [...filter.ids]));
  if (filter.worker !== undefined) where.push(eq(fleetSessions.worker, filter.worker));
  if (filter.repo !== undefined) where.push(eq(sessions.repoPath, filter.repo));
  if (filter.deadLettered) where.push(isNotNull(fleetSessions.deadLetteredAt));
  return where;
}

export interface Tally {
  sessions: number;
  costUsd: number;
}

export interface SessionTotals {
  /** Sessions created since the start of the caller's day, week, and ever; with their cost. */
  today: Tally;
  week: Tally;
  all: Tally;
  /** Sessions by status: stored, except "queued" (its job waits in the queue) and "dead-lettered". */
  byStatus: Record<string, number>;
}

/**
 * Two aggregate queries over the sessions table (the day and week bounds are the caller's, in its
 * local time). Costs are added in the order of the ids, so that the sums do not depend on where rows
 * lie (tallySessions adds them so too). `queue`: where the fleet's jobs are, to count queued
 * sessions; absent there, none are.
 */
export async function sessionTotals(
  db: Db,
  bounds: { dayStart: Date; weekStart: Date },
  queue: { schema: string; name: string },
): Promise<SessionTotals> {
  const day = bounds.dayStart.toISOString();
  const week = bounds.weekStart.toISOString();
  const [sums] = rowsOf<Record<string, string | number | null>>(
    await db.execute(sql`select
        count(*) filter (where created_at >= ${day}::timestamptz) as day_n,
        coalesce(sum(cost_usd order by id) filter (where created_at >= ${day}::timestamptz), 0) as day_cost,
        count(*) filter (where created_at >= ${week}::timestamptz) as week_n,
        coalesce(sum(cost_usd order by id) filter (where created_at >= ${week}::timestamptz), 0) as week_cost,
        count(*) as all_n,
        coalesce(sum(cost_usd order by id), 0) as all_cost
      from sessions`),
  );
  const queued = (await hasQueue(db, queue))
    ? sql`s.status not in ('completed', 'failed') and exists (select 1 from ${sql.identifier(queue.schema)}.job j where j.name = ${queue.name} and j.singleton_key = s.id and j.state in ('created', 'retry'))`
    : sql`false`;
  const statuses = rowsOf<{ status: string; n: string | number }>(
    await db.execute(sql`select status, count(*) as n from (
        select case when f.dead_lettered_at is not null then 'dead-lettered' when ${queued} then 'queued' else s.status::text end as status
        from sessions s left join fleet_sessions f on f.session_id = s.id
      ) t group by status order by status`),
  );
  const tally = (n: unknown, cost: unknown): Tally => ({ sessions: Number(n ?? 0), costUsd: Number(cost ?? 0) });
  return {
    today: tally(sums?.day_n, sums?.day_cost),
    week: tally(sums?.week_n, sums?.week_cost),
    all: tally(sums?.all_n, sums?.all_cost),
    byStatus: Object.fromEntries(statuses.map((r) => [r.status, Number(r.n)])),
  };
}

/** Whether the queue's job table exists (never on the embedded database). */
export async function hasQueue(db: Db, queue: { schema: string }): Promise<boolean> {
  const [row] = rowsOf<{ present: boolean }>(await db.execute(sql`select to_regclass(${`${queue.schema}.job`}) is not null as present`));
  return row?.present === true;
}

export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : ((result as { rows?: T[] }).rows ?? [])) as T[];
}
