import { openStore } from "@hatloop/db";

// A process that holds the embedded database as a running loop does (it opened it first), until its
// parent says "stop" or goes away. Forked with IPC by the startup bench.

const [url] = process.argv.slice(2);
if (!url || !process.send) throw new Error("usage: holder-child URL (forked with IPC)");
const store = await openStore({ url });
// Held, as a run holds it: the first query made this process the holder.
await store.sessions.list({ limit: 1 });
process.send({ ready: true });
await new Promise<void>((resolve) => {
  process.on("message", (m) => m === "stop" && resolve());
  process.on("disconnect", () => resolve());
});
await store.close();
if (process.connected) process.disconnect();
