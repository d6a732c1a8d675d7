import type { Command } from "commander";
import { eventReader } from "@hatloop/core";
import { printError } from "../output/print.js";
import { resolveSession, withStore } from "../runtime.js";
import { eventsAfter } from "../fleet/follow.js";
import { followAsLines } from "../sinks/follow-lines.js";
import { printedEvents } from "../sinks/printed.js";

export async function logsAction(id: string, flags: { follow?: boolean; tail?: number; json?: boolean }, command: Command): Promise<void> {
  await withStore(command, async (store) => {
    const session = await resolveSession(store, id);
    const json = Boolean(flags.json);
    const sink = printedEvents(json);
    // Stored events are checked; one that is not a valid event is skipped with a line on stderr.
    const reader = eventReader(printError);
    const events = flags.tail ? await store.events.tail(session.id, flags.tail) : await eventsAfter(store, session.id, 0);
    reader.read(events).forEach(sink);
    // Pushed as they are stored, as `watch` is (sinks/follow-lines.ts).
    if (flags.follow) await followAsLines(store, session, events.at(-1)?.id ?? 0, { sink, reader, json });
    sink.end();
  });
}
