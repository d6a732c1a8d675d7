import { and, asc, desc, eq, gt } from "drizzle-orm";
import type { EventStore, StoredEvent } from "@hatloop/core";
import type { Db } from "../db.js";
import { events } from "../schema.js";

function toStored(row: typeof events.$inferSelect): StoredEvent {
  return { id: row.id, sessionId: row.sessionId, iteration: row.iteration, type: row.type, payload: row.payload, createdAt: row.createdAt };
}

export function eventStore(db: Db): EventStore {
  return {
    async append(sessionId, batch) {
      if (batch.length === 0) return;
      await db.insert(events).values(batch.map((e) => ({ sessionId, iteration: e.iteration, type: e.type, payload: e.payload })));
    },
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
  };
}
