import type { PgBoss } from "pg-boss";
import type { QueueSummary, WorkerRow } from "@hatloop/console";
import type { HatloopConfig } from "@hatloop/core";
import { fleetStore, type DbStore } from "@hatloop/db";
import { listWorkers } from "../fleet/presence.js";
import { queueInfo } from "../fleet/queue-info.js";
import { openQueue, QUEUE } from "../fleet/queue.js";
import { sessionRows } from "./console-rows.js";

// The workers page's data: the fleet's workers (the workers table) with the sessions each runs now,
// and the queue (pg-boss: queued, active, retrying; dead letters; schedules). The embedded database
// carries no fleet. One queue client is opened at the first look and kept until the server closes.

export interface FleetReader {
  read(): Promise<{ workers: WorkerRow[]; queue: QueueSummary } | null>;
  close(): Promise<void>;
}

export function fleetReader(store: DbStore, config: HatloopConfig): FleetReader {
  const url = config.databaseUrl && /^postgres(ql)?:\/\//.test(config.databaseUrl) ? config.databaseUrl : null;
  let boss: Promise<PgBoss> | null = null;
  return {
    async read() {
      if (!url) return null;
      boss ??= openQueue(url, config, { supervise: false }).catch((error: unknown) => {
        boss = null; // tried again at the next look
        throw error;
      });
      const [info, workers] = await Promise.all([boss.then((b) => queueInfo(store, b)), listWorkers(store)]);
      const [running, deadLettered] = await Promise.all([
        fleetStore(store.database.db).list(info.active, { schema: "pgboss", name: QUEUE }),
        sessionRows(store, { ids: info.deadLettered, limit: info.deadLettered.length }),
      ]);
      const runs = (name: string) => running.filter((r) => r.worker === name).map((r) => r.sessionId);
      return {
        workers: workers.map((w) => ({ ...w, running: w.state === "stopped" ? [] : runs(w.name) })),
        queue: {
          queued: info.queued.length,
          active: info.active.length,
          retrying: info.retrying.length,
          deadLettered,
          schedules: info.schedules.map((s) => ({ name: s.name, cron: s.cron, task: s.task, repo: s.repo, next: s.next })),
        },
      };
    },
    async close() {
      const opened = await boss?.catch(() => null);
      await opened?.stop({ graceful: false, close: true }).catch(() => {});
    },
  };
}
