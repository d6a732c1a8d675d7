import { setMaxListeners } from "node:events";
import { followEvents } from "@hatloop/core";
import { openStore } from "@hatloop/db";

// The watcher process of the runtime bench: opens the database as a second process would (`hatloop
// watch` in another terminal; with PGlite it becomes a client of the loop's process over its socket),
// follows the session's events and reports when each iteration.end arrives, on the wall clock.

interface Arrival {
  iteration: number;
  at: number;
}

const [url, sessionId] = process.argv.slice(2);
if (!url || !sessionId || !process.send) throw new Error("usage: watch-child URL SESSION (forked with IPC)");
const send = process.send.bind(process);
const store = await openStore({ url });
const stop = new AbortController();
// followEvents adds an abort listener per poll and never removes it (reported upstream); without
// this, Node warns about a listener leak after ten polls.
setMaxListeners(0, stop.signal);
process.on("message", (m) => {
  if (m === "stop") stop.abort();
});
// A parent that dies must not leave a watcher polling forever.
process.on("disconnect", () => stop.abort());
send({ ready: true });
await followEvents(
  store,
  sessionId,
  (events) => {
    const at = performance.timeOrigin + performance.now();
    for (const e of events) if (e.type === "iteration.end") send({ iteration: e.iteration, at } satisfies Arrival);
  },
  { signal: stop.signal },
);
await store.close();
if (process.connected) process.disconnect();
