import { and, desc, eq, gt, ne, or, sql } from "drizzle-orm";
import type { Db } from "../db.js";
import { workers } from "../schema.js";

// The fleet's workers as data (hatloop worker, hatloop workers): each worker process writes its own
// row, and anyone reads them. "lost" is never stored: a worker killed at once cannot say so, so it is
// read from a heartbeat older than a few intervals, by the database's clock (the writers' clocks may
// differ from the reader's).

export type WorkerState = "running" | "draining" | "stopped";

export interface WorkerRow {
  id: string;
  name: string;
  host: string;
  pid: number;
  concurrency: number;
  /** Sessions it runs now (as of its last heartbeat). */
  running: number;
  /** Sessions it took from a runner that had not ended its run. */
  takeovers: number;
  /** As stored, or "lost": not stopped, and no heartbeat for `lostAfterMs`. */
  state: WorkerState | "lost";
  startedAt: Date;
  heartbeatAt: Date;
  stoppedAt: Date | null;
}

export interface NewWorker {
  id: string;
  name: string;
  host: string;
  pid: number;
  concurrency: number;
}

export interface WorkerStore {
  register(worker: NewWorker): Promise<void>;
  /** Now alive, running this many sessions, in this state. */
  heartbeat(id: string, running: number, state: Exclude<WorkerState, "stopped">): Promise<void>;
  tookOver(id: string): Promise<void>;
  stopped(id: string): Promise<void>;
  /**
   * The workers not stopped (lost ones included) and those stopped in the last `keepStoppedMs`,
   * newest first. `lostAfterMs`: how old a heartbeat makes a worker lost.
   */
  list(options: { lostAfterMs: number; keepStoppedMs: number; limit?: number }): Promise<WorkerRow[]>;
}

export function workerStore(db: Db): WorkerStore {
  return {
    async register(worker) {
      await db.insert(workers).values(worker);
    },
    async heartbeat(id, running, state) {
      await db
        .update(workers)
        .set({ running, state, heartbeatAt: sql`now()` })
        .where(eq(workers.id, id));
    },
    async tookOver(id) {
      await db
        .update(workers)
        .set({ takeovers: sql`${workers.takeovers} + 1` })
        .where(eq(workers.id, id));
    },
    async stopped(id) {
      await db
        .update(workers)
        .set({ state: "stopped", running: 0, stoppedAt: sql`now()` })
        .where(eq(workers.id, id));
    },
    async list({ lostAfterMs, keepStoppedMs, limit = 200 }) {
      const lost = sql<boolean>`${workers.state} <> 'stopped' and ${workers.heartbeatAt} < now() - ${lostAfterMs} * interval '1 millisecond'`;
      const since = sql`now() - ${keepStoppedMs} * interval '1 millisecond'`;
      const rows = await db
        .select({ row: workers, lost: lost.as("lost") })
        .from(workers)
        // A lost worker's row is kept as long as a stopped one's, counted from its last heartbeat.
        .where(
          or(
            and(ne(workers.state, "stopped"), gt(workers.heartbeatAt, since)),
            and(eq(workers.state, "stopped"), gt(workers.stoppedAt, since)),
          ),
        )
        .orderBy(desc(workers.startedAt), desc(workers.id))
        .limit(limit);
      return rows.map(({ row, lost }) => ({ ...row, state: lost ? "lost" : row.state }));
    },
  };
}
