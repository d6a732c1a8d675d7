import type { PgBoss, SendOptions } from "pg-boss";
import type { HatloopConfig } from "@hatloop/core";
import type { SqlExecutor } from "@hatloop/db";
import { usageError } from "../errors.js";
import { printError } from "../output/print.js";

// The fleet's queue: pg-boss, in its own schema on the sessions' Postgres. One job per session
// (singletonKey = session id, `exclusive` policy: at most one live job per key), heartbeats while a
// worker runs it (a job whose worker stops beating is failed by pg-boss's supervisor and retried, so
// another worker takes it), retries for drains and crashes, and a group per repository for the
// per-repository limit (fleet.maxPerRepo).

export const QUEUE = "hatloop-sessions";
/** Where pg-boss's cron sends each firing of a schedule (hatloop schedule); a worker makes it a session. */
export const SCHEDULE_QUEUE = "hatloop-schedules";
const QUEUE_SCHEMA = "pgboss";
/** pg-boss's longest job expiry: a session that runs longer is retried and resumes from its checkpoint. */
const EXPIRE_SECONDS = 24 * 3_600;

export interface JobData {
  sessionId: string;
}

/** The fleet needs a Postgres server all workers share: the embedded database is refused (exit 2). */
export function serverUrl(config: HatloopConfig, command: string): string {
  const url = config.databaseUrl;
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    throw usageError(
      `hatloop ${command} needs a Postgres server shared by the workers: pass --db postgres://... (or set DATABASE_URL); the embedded database cannot carry a fleet`,
    );
  }
  return url;
}

/**
 * Starts pg-boss (installing its schema the first time); a worker also supervises (heartbeats, expiry)
 * and runs the cron (any live worker sends a schedule's firing once, pg-boss sees to that).
 */
export async function openQueue(url: string, config: HatloopConfig, options: { supervise: boolean }): Promise<PgBoss> {
  const interval = Math.max(1, Math.round(config.fleet.supervise / 1_000));
  // Loaded here: `ls` and `show` read this module's names and never need pg-boss itself.
  const { PgBoss } = await import("pg-boss");
  const boss = new PgBoss({
    connectionString: url,
    schema: QUEUE_SCHEMA,
    max: options.supervise ? 4 : 2,
    application_name: "hatloop",
    supervise: options.supervise,
    schedule: options.supervise,
    superviseIntervalSeconds: interval,
    monitorIntervalSeconds: interval,
    // The cron's pass: as often as supervision (its default, 30 s, would make a schedule fire up to
    // half a minute late); one small query, and only one worker sends a due firing.
    cronMonitorIntervalSeconds: interval,
    cronWorkerIntervalSeconds: interval,
  });
  boss.on("error", (error: Error) => printError(`queue: ${error.message}`));
  await boss.start();
  await ensureQueue(boss, QUEUE, { policy: "exclusive", expireInSeconds: EXPIRE_SECONDS, retryDelay: 0 });
  // A firing only creates a session: retried a few times, quickly, if the database blinks.
  await ensureQueue(boss, SCHEDULE_QUEUE, { policy: "standard", retryLimit: 3, retryDelay: 5 });
  return boss;
}

async function ensureQueue(boss: PgBoss, name: string, options: Parameters<PgBoss["createQueue"]>[1]): Promise<void> {
  if (await boss.getQueue(name)) return;
  try {
    await boss.createQueue(name, options);
  } catch (error) {
    if (!(await boss.getQueue(name))) throw error; // else another process created it meanwhile
  }
}

/** Queues a session; null when it already has a live job. `db`: enqueue on the caller's transaction. */
export function enqueue(
  boss: PgBoss,
  config: HatloopConfig,
  job: { sessionId: string; repoUrl: string; priority: number },
  db?: SqlExecutor,
): Promise<string | null> {
  const { sessionId, repoUrl, priority } = job;
  const options: SendOptions = {
    singletonKey: sessionId,
    priority,
    heartbeatSeconds: Math.round(config.fleet.heartbeat / 1_000),
    expireInSeconds: EXPIRE_SECONDS,
    retryLimit: config.fleet.retryLimit,
    retryDelay: 0,
    group: { id: repoUrl },
    ...(db ? { db } : {}),
  };
  return boss.send(QUEUE, { sessionId } satisfies JobData, options);
}

/** A queue client for one action, closed after it. */
export async function withQueue<T>(url: string, config: HatloopConfig, action: (boss: PgBoss) => Promise<T>): Promise<T> {
  const boss = await openQueue(url, config, { supervise: false });
  try {
    return await action(boss);
  } finally {
    await boss.stop({ graceful: false, close: true }).catch(() => {});
  }
}
