import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Store } from "@hatloop/core";
import { createRig } from "./rig.js";

// Event-to-watcher latency: the loop writes its events through the event persister (one insert every
// 150 ms) while a watcher in another process follows them as `hatloop watch` does (followEvents with
// its defaults: LISTEN/NOTIFY on Postgres, polling on PGlite). Each iteration.end is timed, on the
// wall clock, from its emission in the
// loop's process to its arrival in the watcher's. With a zero-latency model the loop keeps the
// database busy without pause (a stress case: an embedded database serves one query at a time), so
// a paced run with a modest model latency is measured too.

const child = fileURLToPath(new URL("./watch-child.js", import.meta.url));
const wallNow = (): number => performance.timeOrigin + performance.now();

export async function measureWatcher(store: Store, url: string, iterations: number, modelDelayMs = 0): Promise<number[]> {
  const rig = await createRig(store, { window: 200_000, fillTo: 0, modelDelayMs });
  const emitted = new Map<number, number>();
  const arrived = new Map<number, number>();
  rig.listeners.push((event) => {
    if (event.type === "iteration.end") emitted.set(event.iteration, wallNow());
  });
  const watcher = fork(child, [url, rig.sessionId], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const exited = new Promise<void>((resolve) => watcher.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    watcher.once("error", reject);
    watcher.on("message", (m: { ready?: boolean; iteration?: number; at?: number }) => {
      if (m.ready) resolve();
      if (m.iteration !== undefined && m.at !== undefined) arrived.set(m.iteration, m.at);
    });
  });
  await rig.runUntil(iterations);
  const deadline = Date.now() + 3_000;
  while (arrived.size < emitted.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  watcher.send("stop");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
  if (watcher.exitCode === null) watcher.kill();
  return [...arrived].flatMap(([iteration, at]) => {
    const sent = emitted.get(iteration);
    return sent === undefined ? [] : [at - sent];
  });
}
