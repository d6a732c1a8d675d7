import type { PgBoss } from "pg-boss";
import { fleetStore, type DbStore } from "@hatloop/db";
import { QUEUE } from "./queue.js";
import { listSchedules, type ScheduleView } from "./schedules.js";

// The queue at a glance, for the web console: which sessions wait, run, wait to be retried or are
// dead-lettered, and the schedules. Read in three queries and the schedules' list.

export interface QueueInfo {
  /** Sessions whose job waits for its first worker, highest priority first. */
  queued: string[];
  /** Sessions a worker has taken. */
  active: string[];
  /** Sessions whose job went back to the queue (a drain, a crash, a failed start) and waits to be taken again. */
  retrying: string[];
  /** Sessions out of the queue because their starts failed (hatloop retry), the latest first. */
  deadLettered: string[];
  schedules: ScheduleView[];
}

/** At most this many dead-lettered sessions are listed. */
const DEAD_LETTERS_LISTED = 1_000;

export async function queueInfo(store: DbStore, boss: PgBoss): Promise<QueueInfo> {
  const fleet = fleetStore(store.database.db);
  const [jobs, deadLettered, schedules] = await Promise.all([
    fleet.liveJobs({ schema: "pgboss", name: QUEUE }),
    fleet.deadLettered(DEAD_LETTERS_LISTED),
    listSchedules(store, boss),
  ]);
  const of = (state: string) => jobs.filter((j) => j.state === state).map((j) => j.sessionId);
  return { queued: of("created"), active: of("active"), retrying: of("retry"), deadLettered, schedules };
}
