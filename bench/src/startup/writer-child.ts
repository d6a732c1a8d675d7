import { hostname } from "node:os";
import { openStore } from "@hatloop/db";
import { createRig } from "../runtime/rig.js";

// The run a `hatloop watch` follows in the startup bench: opens the embedded database first (so it
// holds it), runs one iteration, says which session, waits for "go", runs `iterations` more with a
// paced model, then closes the database and exits at once, as `hatloop run` does when its task ends:
// the last events must reach the watcher across that hand-over.

const [url, iterations, modelMs] = process.argv.slice(2);
if (!url || !iterations || !modelMs || !process.send) throw new Error("usage: writer-child URL ITERATIONS MODEL_MS (forked with IPC)");
const send = process.send.bind(process);
const store = await openStore({ url });
const rig = await createRig(store, { window: 200_000, fillTo: 0, modelDelayMs: Number(modelMs) });
await rig.runUntil(1);
// Live, as a run's session is: running, with a lease held by this process.
await store.sessions.update(rig.sessionId, { status: "running" });
await store.sessions.acquireLease(rig.sessionId, `${hostname()}:${process.pid}`, 120_000);
send({ sessionId: rig.sessionId });
await new Promise<void>((resolve) => process.once("message", () => resolve()));
await rig.runUntil(1 + Number(iterations));
await store.close();
process.disconnect();
