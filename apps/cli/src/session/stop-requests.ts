import type { Store } from "@hatloop/core";
import { fleetStore, type DbStore } from "@hatloop/db";

// `hatloop stop SESSION` from any machine: the request is a row in the database (fleet_sessions),
// and whoever runs the session polls for it. Polling, not LISTEN: it also works on the embedded
// database, and a request made while the session was between two runners is still there later.

const POLL_MS = 1_000;

/** Calls `onStop(id)` once for each of `ids()` whose stop was requested; `stop()` ends the polling. */
export function watchStopRequests(store: Store, ids: () => string[], onStop: (id: string) => void, intervalMs = POLL_MS): { stop(): void } {
  const database = (store as Partial<DbStore>).database;
  if (!database) return { stop() {} };
  const fleet = fleetStore(database.db);
  const seen = new Set<string>();
  let busy = false;
  const timer = setInterval(() => {
    const wanted = ids().filter((id) => !seen.has(id));
    if (busy || wanted.length === 0) return;
    busy = true;
    fleet
      .stopsRequested(wanted)
      .then((requested) => {
        for (const id of requested) {
          seen.add(id);
          onStop(id);
        }
      })
      .catch(() => {}) // a database blip: asked again at the next tick
      .finally(() => (busy = false));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
