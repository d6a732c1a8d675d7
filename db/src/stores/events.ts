import { and, asc, desc, eq, gt, inArray, max, sql } from "drizzle-orm";
import type { EventStore, StoredEvent } from "@hatloop/core";
import type { Db } from "../db.js";
import { epochFor, type Fence } from "../fence.js";
import { events } from "../schema.js";

function toStored(row: typeof events.$inferSelect): StoredEvent {
  return {
    id: row.id,
    sessionId: row.sessionId,
    iteration: row.iteration,
    type: row.type,
    payload: row.payload,
    version: row.version,
    createdAt: row.createdAt,
  };
}

/** The channel watchers LISTEN on; the payload is the session id. */
const EVENTS_CHANNEL = "hatloop_events";

export type Listen = (channel: string, onPayload: (payload: string | null) => void) => Promise<() => Promise<void>>;

/** With `listen` (Postgres, the embedded database's holder): appends then NOTIFY, and watchers can subscribe. */
export function eventStore(db: Db, listen?: Listen, fence?: Fence): EventStore {
  return {
    async append(sessionId, batch) {
      if (batch.length === 0) return;
      await db.insert(events).values(
        batch.map((e) => ({
          sessionId,
          iteration: e.iteration,
          type: e.type,
          payload: e.payload,
          version: e.version ?? null,
          leaseEpoch: epochFor(fence, sessionId),
        })),
      );
      if (listen) await db.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${sessionId})`);
    },
    ...(listen
      ? {
          subscribe: (sessionId: string | null, onAppend: () => void) =>
            listen(EVENTS_CHANNEL, (payload) => (payload === null || sessionId === null || payload === sessionId) && onAppend()),
        }
      : {}),
    async after(sessionId, afterId, limit = 500) {
      const rows = await db
        .select()
        .from(events)
        .where(and(eq(events.sessionId, sessionId), gt(events.id, afterId)))
        .orderBy(asc(events.id))
        .limit(limit);
      return rows.map(toStored);
    },
    async tail(sessionId, limit) {
      const rows = await db.select().from(events).where(eq(events.sessionId, sessionId)).orderBy(desc(events.id)).limit(limit);
      return rows.reverse().map(toStored);
    },
    async since(afterId, limit = 500) {
      const rows = await db.select().from(events).where(gt(events.id, afterId)).orderBy(asc(events.id)).limit(limit);
      return rows.map(toStored);
    },
    async lastId() {
      const [row] = await db.select({ id: max(events.id) }).from(events);
      return row?.id ?? 0;
    },
    async latest(sessionIds, types) {
      if (sessionIds.length === 0 || types?.length === 0) return [];
      const rows = await db
        .selectDistinctOn([events.sessionId])
        .from(events)
        .where(and(inArray(events.sessionId, [...sessionIds]), types ? inArray(events.type, [...types]) : undefined))
        .orderBy(events.sessionId, desc(events.id));
      return rows.map(toStored);
    },
    async ofTypes(sessionId, types, limit) {
      if (types.length === 0) return [];
      const rows = await db
        .select()
        .from(events)
        .where(and(eq(events.sessionId, sessionId), inArray(events.type, [...types])))
        .orderBy(desc(events.id))
        .limit(limit);
      return rows.reverse().map(toStored);
    },
  };
}
