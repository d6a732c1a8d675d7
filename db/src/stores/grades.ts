import { asc, eq } from "drizzle-orm";
import type { GradeStore } from "@hatloop/core";
import type { Db } from "../db.js";
import { epochFor, type Fence } from "../fence.js";
import { grades } from "../schema.js";

export function gradeStore(db: Db, fence?: Fence): GradeStore {
  return {
    async append(sessionId, grade) {
      const [row] = await db
        .insert(grades)
        .values({ sessionId, ...grade, leaseEpoch: epochFor(fence, sessionId) })
        .returning();
      return recordOf(row!);
    },
    async list(sessionId) {
      const rows = await db.select().from(grades).where(eq(grades.sessionId, sessionId)).orderBy(asc(grades.round));
      return rows.map(recordOf);
    },
  };
}

function recordOf(row: typeof grades.$inferSelect) {
  const { sessionId: _sessionId, leaseEpoch: _leaseEpoch, ...record } = row;
  return record;
}
