import { and, desc, eq, lt, notInArray, sql } from "drizzle-orm";
import type { CheckpointRecord, CheckpointStore } from "@hatloop/core";
import type { Db } from "../db.js";
import { epochFor, type Fence } from "../fence.js";
import { checkpoints } from "../schema.js";

type Row = typeof checkpoints.$inferSelect;

function toRecord(row: Row): CheckpointRecord {
  const { id: _id, sessionId: _sessionId, leaseEpoch: _leaseEpoch, ...rest } = row;
  return rest;
}

export function checkpointStore(db: Db, fence?: Fence): CheckpointStore {
  const ofSession = (sessionId: string) => eq(checkpoints.sessionId, sessionId);
  return {
    async append(sessionId, checkpoint) {
      // The next seq is computed in the same statement, so numbering has no read-then-write gap.
      const nextSeq = sql<number>`(select coalesce(max(seq), 0) + 1 from ${checkpoints} where session_id = ${sessionId})`;
      const [row] = await db
        .insert(checkpoints)
        .values({ ...checkpoint, sessionId, seq: nextSeq, leaseEpoch: epochFor(fence, sessionId) })
        .returning();
      return toRecord(row!);
    },
    async latest(sessionId) {
      const [row] = await db.select().from(checkpoints).where(ofSession(sessionId)).orderBy(desc(checkpoints.seq)).limit(1);
      return row ? toRecord(row) : null;
    },
    async get(sessionId, seq) {
      const [row] = await db
        .select()
        .from(checkpoints)
        .where(and(ofSession(sessionId), eq(checkpoints.seq, seq)));
      return row ? toRecord(row) : null;
    },
    async list(sessionId, options = {}) {
      const rows = await db
        .select()
        .from(checkpoints)
        .where(and(ofSession(sessionId), options.beforeSeq === undefined ? undefined : lt(checkpoints.seq, options.beforeSeq)))
        .orderBy(desc(checkpoints.seq))
        .limit(options.limit ?? 1000);
      return rows.map(toRecord);
    },
    async prune(sessionId, keepLast, keepReasons) {
      const cutoff = sql`(select seq from ${checkpoints} where session_id = ${sessionId} order by seq desc offset ${keepLast} limit 1)`;
      const first = sql`(select min(seq) from ${checkpoints} where session_id = ${sessionId})`;
      const deleted = await db
        .delete(checkpoints)
        .where(
          and(
            ofSession(sessionId),
            keepReasons.length ? notInArray(checkpoints.reason, keepReasons) : undefined,
            sql`${checkpoints.seq} <> ${first}`,
            sql`${checkpoints.seq} <= ${cutoff}`,
          ),
        )
        .returning({ seq: checkpoints.seq });
      return deleted.length;
    },
  };
}
