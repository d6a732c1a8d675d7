import type { SessionRecord } from "@hatloop/core";
import { fleetStore, type DbStore } from "@hatloop/db";
import type { FleetView } from "./listing.js";
import { QUEUE } from "./queue.js";

/** The fleet sessions among `sessions` (others are absent from the map). */
export async function fleetViews(store: DbStore, sessions: readonly SessionRecord[]): Promise<Map<string, FleetView>> {
  const rows = await fleetStore(store.database.db).list(
    sessions.map((s) => s.id),
    { schema: "pgboss", name: QUEUE },
  );
  return new Map(
    rows
      .filter((r) => r.repoUrl)
      .map((r) => [
        r.sessionId,
        {
          queue: r.queueState,
          worker: r.worker,
          repo: r.repoUrl,
          priority: r.priority,
          deadLettered: r.deadLetteredAt !== null,
          startError: r.startError,
          schedule: r.schedule,
        },
      ]),
  );
}
