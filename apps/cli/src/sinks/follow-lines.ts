import { followEvents, type EventReader, type EventSink, type SessionRecord } from "@hatloop/core";
import type { DbStore } from "@hatloop/db";
import { eventsAfter, followFleetSession } from "../fleet/follow.js";
import { fleetViews } from "../fleet/fleet-views.js";
import { shortId } from "../format.js";
import { invocation } from "../invocation.js";
import { printError } from "../output/print.js";
import { isLive } from "../session/liveness.js";
import { whenNotLive } from "../ui/watched-run.js";

// `watch --plain/--json` and `logs -f`: one way to print a session's events as they are stored.
// Events are pushed (LISTEN/NOTIFY on Postgres, the holder's socket on the embedded database, see
// followEvents), so a line appears as soon as its event is stored instead of at the next poll.

/**
 * Prints the session's events after `afterId` (the last one the caller printed) until its run ends
 * (a fleet session: until it leaves the queue), its runner is gone, or Ctrl-C.
 */
export async function followAsLines(
  store: DbStore,
  session: SessionRecord,
  afterId: number,
  { sink, reader, json }: { sink: EventSink; reader: EventReader; json: boolean },
): Promise<void> {
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  process.once("SIGINT", interrupt);
  try {
    if ((await fleetViews(store, [session])).has(session.id)) {
      await followFleetSession(store, session.id, afterId, { sink, reader, json, stop: stop.signal });
      return;
    }
    let lastId = afterId;
    // Read after the caller's events: a run that has ended by now has stored its last events.
    let ended = !isLive((await store.sessions.get(session.id)) ?? session);
    if (!ended) {
      // The end is told by the run's session.end; that of a run that never writes it (killed) or
      // whose session.end came before `afterId`, by its row, checked every few seconds.
      whenNotLive(store, session.id, stop.signal, (interrupted) => {
        if (interrupted)
          printError(
            `the run ended without a word (killed, or quit at once); resume it with: ${invocation()} resume ${shortId(session.id)}`,
          );
        ended = true;
        stop.abort();
      });
      await followEvents(
        store,
        session.id,
        (events, id) => {
          events.forEach(sink);
          lastId = id;
          if (events.some((e) => e.type === "session.end")) stop.abort();
        },
        { afterId, signal: stop.signal, reader },
      );
    }
    if (ended) reader.read(await eventsAfter(store, session.id, lastId)).forEach(sink);
  } finally {
    stop.abort(); // ends the row's checks
    process.off("SIGINT", interrupt);
  }
}
