import { filteredSessions, sessionTotals, type DbStore } from "@hatloop/db";
import { currentStatuses } from "../session/liveness.js";
import { fleetViews } from "./fleet-views.js";
import { QUEUE } from "./queue.js";
import type { SessionSource } from "./session-list.js";

/** The sessions as the database has them, with the statuses only a live runner or the queue can tell. */
export function sessionsInStore(store: DbStore): SessionSource {
  return {
    page: (filter, page) => filteredSessions(store.database.db, filter, page),
    statuses: (sessions, now) => currentStatuses(store, sessions, now),
    fleet: (sessions) => fleetViews(store, sessions),
    totals: (bounds) => sessionTotals(store.database.db, bounds, { schema: "pgboss", name: QUEUE }),
  };
}
