import type { Job, PgBoss } from "pg-boss";
import type { HatloopConfig } from "@hatloop/core";
import type { DbStore } from "@hatloop/db";
import type { ScheduleData } from "./schedules.js";
import { createSession } from "./submission.js";

// A schedule's firing, run by a worker: a new session, made as submit makes one, from the submission
// the schedule keeps. Its base commit is read when a worker starts it (a branch moves between
// firings; a base that is gone by then is a failed start, retried and dead-lettered).

/**
 * The session a firing makes has the firing job's id: a firing retried after its worker died
 * between the two makes no second session.
 */
export async function fire(
  store: DbStore,
  boss: PgBoss,
  config: HatloopConfig,
  job: Job<ScheduleData>,
): Promise<{ sessionId: string; created: boolean }> {
  const { schedule, submission } = job.data;
  if (await store.sessions.get(job.id)) return { sessionId: job.id, created: false };
  await createSession(config.databaseUrl!, boss, config, submission, { id: job.id, baseCommit: "", schedule });
  return { sessionId: job.id, created: true };
}
