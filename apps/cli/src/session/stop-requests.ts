import type { Store } from "@hatloop/core";
import { fleetStore, type DbStore } from "@hatloop/db";

// `hatloop stop SESSION` from any machine: the request is a row in the database (fleet_sessions),
// and whoever runs the session polls for it. Polling, not LISTEN: it also works on the embedded
// database, and a request made while the session was between two runners is still there later.

const POLL_MS = 1_000;

/**
 * Calls `onStop(id)` once per stop request (told apart by when it was made) for each of `ids()`;
 * `stop()` ends the polling. A worker runs one session many times (stop, resume, stop again): a
 * request already acted on is remembered only while the session stays among `ids()`.
 */
export function watchStopRequests(
  store: Store,
  ids: () => string[],
  onStop: (id: string) => void,
  intervalMs = POLL_MS,
): { stop(): void; clearActedOn(): Promise<void> } {
  const database = (store as Partial<DbStore>).database;
  if (!database) return { stop() {}, clearActedOn: async () => {} };
  const fleet = fleetStore(database.db);
  const handled = new Map<string, number>();
  const actedOn = new Set<string>();
  let busy = false;
  const timer = setInterval(() => {
    const current = ids();
    for (const id of handled.keys()) if (!current.includes(id)) handled.delete(id);
    if (busy || current.length === 0) return;
    busy = true;
    fleet
      .stopsRequested(current)
      .then((requested) => {
        for (const [id, at] of requested) {
          if (handled.get(id) === at.getTime() || !ids().includes(id)) continue;
          handled.set(id, at.getTime());
          actedOn.add(id);
          onStop(id);
        }
      })
      .catch(() => {}) // a database blip: asked again at the next tick
      .finally(() => (busy = false));
  }, intervalMs);
  timer.unref();
  return {
    stop: () => clearInterval(timer),
    // A request this runner obeyed is done with: left, it would stop the session's next run too.
    clearActedOn: async () => {
      for (const id of actedOn) await fleet.clearStop(id);
    },
  };
}
