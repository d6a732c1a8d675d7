import { setTimeout as sleep } from "node:timers/promises";
import type { Command } from "commander";
import { eventReader, type EventReader, type EventSink, type SessionRecord, type Store } from "@hatloop/core";
import { printError } from "../output/print.js";
import { resolveSession, withStore } from "../runtime.js";
import { printedEvents } from "../sinks/printed.js";
import { isLive } from "../session/liveness.js";
import { eventsAfter, followFleetSession } from "../fleet/follow.js";
import { fleetViews } from "../fleet/listing.js";

const POLL_MS = 250;

export async function logsAction(id: string, flags: { follow?: boolean; tail?: number; json?: boolean }, command: Command): Promise<void> {
  await withStore(command, async (store) => {
    const session = await resolveSession(store, id);
    const sink = printedEvents(Boolean(flags.json));
    // Stored events are checked; one that is not a valid event is skipped with a line on stderr.
    const reader = eventReader(printError);
    let last = await printEvents(store, session.id, sink, reader, flags.tail);
    if (!flags.follow) return sink.end();
    const stop = new AbortController();
    process.once("SIGINT", () => stop.abort());
    if ((await fleetViews(store, [session])).has(session.id)) {
      await followFleetSession(store, session.id, last.id, { sink, reader, json: Boolean(flags.json), stop: stop.signal });
      return sink.end();
    }
    while (!stop.signal.aborted) {
      await sleep(POLL_MS);
      const next = await store.events.after(session.id, last.id);
      reader.read(next).forEach(sink);
      if (next.length) last = { id: next.at(-1)!.id, ended: next.some((e) => e.type === "session.end") };
      if (last.ended && !runs(await store.sessions.get(session.id))) break;
    }
    sink.end();
  });
}

/** Prints what is stored so far; returns the last event's id and whether a run ended with it. */
async function printEvents(
  store: Store,
  sessionId: string,
  sink: EventSink,
  reader: EventReader,
  tail?: number,
): Promise<{ id: number; ended: boolean }> {
  const events = tail ? await store.events.tail(sessionId, tail) : await eventsAfter(store, sessionId, 0);
  reader.read(events).forEach(sink);
  const session = await store.sessions.get(sessionId);
  return { id: events.at(-1)?.id ?? 0, ended: !runs(session) };
}

/** A run goes on: running, or waiting for an answer with its runner still there (a headless one ended). */
function runs(session: SessionRecord | null): boolean {
  return session?.status === "running" || (session?.status === "waiting" && isLive(session));
}
