import { and, desc, eq, sql } from "drizzle-orm";
import type { MemoryRecord, MemoryStore } from "@hatloop/core";
import type { Db } from "../db.js";
import { memories } from "../schema.js";

function toRecord(row: typeof memories.$inferSelect): MemoryRecord {
  return row;
}

export function memoryStore(db: Db): MemoryStore {
  return {
    async add(memory) {
      const [row] = await db.insert(memories).values(memory).returning();
      return toRecord(row!);
    },
    async updateContent(id, content, confidence) {
      await db
        .update(memories)
        .set({ content, ...(confidence === undefined ? {} : { confidence }), updatedAt: sql`now()` })
        .where(eq(memories.id, id));
    },
    async supersede(id, byId) {
      await db
        .update(memories)
        .set({ status: "superseded", supersededBy: byId, updatedAt: sql`now()` })
        .where(eq(memories.id, id));
    },
    async listActive(repoPath, options = {}) {
      const rows = await db
        .select()
        .from(memories)
        .where(
          and(eq(memories.repoPath, repoPath), eq(memories.status, "active"), options.kind ? eq(memories.kind, options.kind) : undefined),
        )
        .orderBy(desc(memories.confidence), desc(memories.updatedAt))
        .limit(options.limit ?? 50);
      return rows.map(toRecord);
    },
    async bySession(sessionId) {
      const rows = await db.select().from(memories).where(eq(memories.sessionId, sessionId)).orderBy(desc(memories.id));
      return rows.map(toRecord);
    },
  };
}
