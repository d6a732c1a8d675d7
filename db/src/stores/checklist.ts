import { and, asc, eq, sql } from "drizzle-orm";
import type { ChecklistStore } from "@hatloop/core";
import type { Db } from "../db.js";
import { epochFor, type Fence } from "../fence.js";
import { checklistItems } from "../schema.js";

export function checklistStore(db: Db, fence?: Fence): ChecklistStore {
  return {
    async upsert(sessionId, items) {
      if (items.length === 0) return;
      // New items go after the existing ones; known items keep their status.
      const base = sql<number>`(select coalesce(max(position), 0) from ${checklistItems} where session_id = ${sessionId})`;
      await db
        .insert(checklistItems)
        .values(
          items.map((item, i) => ({
            sessionId,
            itemId: item.id,
            description: item.description,
            position: sql<number>`${base} + ${i + 1}`,
            leaseEpoch: epochFor(fence, sessionId),
          })),
        )
        .onConflictDoUpdate({
          target: [checklistItems.sessionId, checklistItems.itemId],
          set: { description: sql`excluded.description`, updatedAt: sql`now()`, leaseEpoch: sql`excluded.lease_epoch` },
        });
    },
    async setStatus(sessionId, itemId, status, reason) {
      const updated = await db
        .update(checklistItems)
        .set({ status, reason, updatedAt: sql`now()`, leaseEpoch: epochFor(fence, sessionId) })
        .where(and(eq(checklistItems.sessionId, sessionId), eq(checklistItems.itemId, itemId)))
        .returning({ itemId: checklistItems.itemId });
      return updated.length > 0;
    },
    async list(sessionId) {
      const rows = await db
        .select()
        .from(checklistItems)
        .where(eq(checklistItems.sessionId, sessionId))
        .orderBy(asc(checklistItems.position), asc(checklistItems.itemId));
      return rows.map((r) => ({ id: r.itemId, description: r.description, status: r.status, reason: r.reason }));
    },
  };
}
