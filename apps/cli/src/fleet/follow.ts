import { setTimeout as sleep } from "node:timers/promises";
import { followEvents, type EventReader, type EventSink, type Store, type StoredEvent } from "@hatloop/core";
import { fleetStore, type DbStore, type QueueState } from "@hatloop/db";
import { shortId } from "../format.js";
import { printError, printText } from "../output/print.js";
import { QUEUE } from "./queue.js";

// `watch` and `logs -f` of a fleet session: its events come in runs, by whichever worker takes it,
// with waits in the queue between them (submitted, drained, taken over after a crash). A run's
// session.end is not the end while the session's job is queued or taken; following ends when it has
// none (completed, failed, stopped, paused out of the queue, waiting for an answer).

const POLL_MS = 500;

/** The state of the session's live job in the fleet's queue; null: it has none. */
export function queueStateOf(store: DbStore, sessionId: string): Promise<QueueState | null> {
  return fleetStore(store.database.db)
    .list([sessionId], { schema: "pgboss", name: QUEUE })
    .then(([row]) => row?.queueState ?? null);
}

/**
 * Resolves once the session's job is gone (every event of its last run is stored by then: a worker
 * ends a job after its run), or when `signal` aborts. `onQueued` is called each time the session
 * (re)enters the queue, with the id of the last event stored by then (the end of the run before),
 * which the caller prints before it says the session waits.
 */
async function whileInFleet(
  store: DbStore,
  sessionId: string,
  onQueued: (lastStoredId: number) => Promise<void>,
  signal: AbortSignal,
): Promise<void> {
  let previous: QueueState | null | undefined;
  while (!signal.aborted) {
    const state = await queueStateOf(store, sessionId);
    if (state === null) return;
    if (state === "queued" && previous !== "queued") await onQueued((await store.events.tail(sessionId, 1))[0]?.id ?? 0);
    previous = state;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, POLL_MS);
      signal.addEventListener("abort", done, { once: true });
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
    });
  }
}

/** Said once each time the session waits in the queue: on stdout among plain lines, on stderr beside JSON lines. */
function sayQueued(sessionId: string, json: boolean): void {
  const line = `session ${shortId(sessionId)} is queued, waiting for a worker`;
  if (json) printError(line);
  else printText(`hatloop: ${line}`);
}

/** Every stored event of the session after `afterId`. */
export async function eventsAfter(store: Store, sessionId: string, afterId: number): Promise<StoredEvent[]> {
  const out = [];
  for (let after = afterId; ;) {
    const page = await store.events.after(sessionId, after, 1000);
    out.push(...page);
    if (page.length < 1000) return out;
    after = page.at(-1)!.id;
  }
}

/** A fleet session's runs, one after another, until it has no job left; then the last run's remaining events. */
export async function followFleetSession(
  store: DbStore,
  sessionId: string,
  afterId: number,
  { sink, reader, json, stop }: { sink: EventSink; reader: EventReader; json: boolean; stop: AbortSignal },
): Promise<void> {
  let lastId = afterId;
  const following = new AbortController();
  const events = followEvents(
    store,
    sessionId,
    (batch, id) => {
      batch.forEach(sink);
      lastId = id;
    },
    { afterId, signal: following.signal, reader },
  );
  // The run before a return to the queue is printed to its end before the line that says it waits.
  const printedUpTo = async (id: number): Promise<void> => {
    while (lastId < id && !stop.aborted) await sleep(25);
  };
  await whileInFleet(store, sessionId, (upTo) => printedUpTo(upTo).then(() => sayQueued(sessionId, json)), stop);
  following.abort();
  await events;
  if (!stop.aborted) reader.read(await eventsAfter(store, sessionId, lastId)).forEach(sink);
}
