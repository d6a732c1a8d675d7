import { and, asc, between, desc, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { Message } from "@hatloop/context";
import type { MessageStore, StoredMessage } from "@hatloop/core";
import type { Db } from "../db.js";
import { epochFor, type Fence } from "../fence.js";
import { messages } from "../schema.js";
import { searchableWords } from "../stored-value.js";

// Never select the tsvector column: it is as large as the content and only the index needs it.
const columns = {
  seq: messages.seq,
  iteration: messages.iteration,
  hat: messages.hat,
  role: messages.role,
  kind: messages.kind,
  content: messages.content,
  tokenEstimate: messages.tokenEstimate,
  createdAt: messages.createdAt,
};

type Row = { [K in keyof typeof columns]: (typeof messages.$inferSelect)[K] };

function toStored(row: Row): StoredMessage {
  return {
    seq: row.seq,
    iteration: row.iteration,
    hat: row.hat,
    kind: row.kind,
    message: { role: row.role, content: row.content as Message["content"] },
    tokenEstimate: row.tokenEstimate,
    createdAt: row.createdAt,
  };
}

export function messageStore(db: Db, fence?: Fence): MessageStore {
  return {
    async append(sessionId, batch) {
      if (batch.length === 0) return [];
      await db.insert(messages).values(
        batch.map((m) => ({
          sessionId,
          seq: m.seq,
          iteration: m.iteration,
          hat: m.hat,
          role: m.message.role,
          kind: m.kind,
          content: m.message.content,
          tokenEstimate: m.tokenEstimate,
          leaseEpoch: epochFor(fence, sessionId),
        })),
      );
      // Stored as given: the column types read any value back exactly as written (stored-value.ts).
      return batch;
    },
    async range(sessionId, fromSeq, toSeq) {
      const rows = await db
        .select(columns)
        .from(messages)
        .where(and(eq(messages.sessionId, sessionId), between(messages.seq, fromSeq, toSeq)))
        .orderBy(asc(messages.seq));
      return rows.map(toStored);
    },
    async bySeqs(sessionId, seqs) {
      if (seqs.length === 0) return [];
      const rows = await db
        .select(columns)
        .from(messages)
        .where(and(eq(messages.sessionId, sessionId), inArray(messages.seq, seqs)))
        .orderBy(asc(messages.seq));
      return rows.map(toStored);
    },
    async lastSeq(sessionId) {
      const [row] = await db
        .select({ seq: sql<number>`coalesce(max(${messages.seq}), 0)`.mapWith(Number) })
        .from(messages)
        .where(eq(messages.sessionId, sessionId));
      return row?.seq ?? 0;
    },
    async count(sessionId) {
      return db.$count(messages, eq(messages.sessionId, sessionId));
    },
    async search(sessionId, query, options = {}) {
      // websearch_to_tsquery accepts anything a person types (quotes, OR, -word) without syntax errors.
      const tsquery = sql`websearch_to_tsquery('english', ${searchableWords(query)})`;
      const rank = sql<number>`ts_rank(${messages.search}, ${tsquery})`.mapWith(Number);
      const rows = await db
        .select({ ...columns, rank })
        .from(messages)
        .where(
          and(
            eq(messages.sessionId, sessionId),
            sql`${messages.search} @@ ${tsquery}`,
            options.excludeSeqs?.length ? notInArray(messages.seq, options.excludeSeqs) : undefined,
            options.kinds?.length ? inArray(messages.kind, options.kinds) : undefined,
          ),
        )
        .orderBy(desc(rank), desc(messages.seq))
        .limit(options.limit ?? 5);
      return rows.map((r) => {
        const stored = toStored(r);
        return {
          seq: stored.seq,
          kind: stored.kind,
          iteration: stored.iteration,
          role: stored.message.role,
          rank: r.rank,
          message: stored.message,
        };
      });
    },
  };
}
