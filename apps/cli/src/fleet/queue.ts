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

/** Starts pg-boss (installing its schema the first time); a worker also supervises (heartbeats, expiry). */
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
    schedule: false,
    superviseIntervalSeconds: interval,
    monitorIntervalSeconds: interval,
  });
  boss.on("error", (error: Error) => printError(`queue: ${error.message}`));
  await boss.start();
  if (!(await boss.getQueue(QUEUE))) {
    try {
      await boss.createQueue(QUEUE, { policy: "exclusive", expireInSeconds: EXPIRE_SECONDS, retryDelay: 0 });
    } catch (error) {
      if (!(await boss.getQueue(QUEUE))) throw error; // else another process created it meanwhile
    }
  }
  return boss;
}

/** Queues a session; null when it already has a live job. `db`: enqueue on the caller's transaction. */
export function enqueue(boss: PgBoss, config: HatloopConfig, sessionId: string, repoUrl: string, db?: SqlExecutor): Promise<string | null> {
  const options: SendOptions = {
    singletonKey: sessionId,
    heartbeatSeconds: Math.round(config.fleet.heartbeat / 1_000),
    expireInSeconds: EXPIRE_SECONDS,
    retryLimit: config.fleet.retryLimit,
    retryDelay: 0,
    group: { id: repoUrl },
    ...(db ? { db } : {}),
  };
  return boss.send(QUEUE, { sessionId } satisfies JobData, options);
}
