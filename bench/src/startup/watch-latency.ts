import { fork, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { HATLOOP_BIN } from "../fleet/processes.js";

// Event to `hatloop watch` (or `logs -f`), whole processes: a run (writer-child.ts) holds the
// embedded database and works a paced session; `hatloop watch SESSION --json` or `hatloop logs
// SESSION -f --json` (the built binary) follows it from another process. Each event is timed from its `ts` (taken in the run as it was emitted) to the moment its
// line reaches this process. The run exits right after its last event, so the last ones measure the
// hand-over of the database to the watcher.

const writer = fileURLToPath(new URL("./writer-child.js", import.meta.url));
const wallNow = (): number => performance.timeOrigin + performance.now();

export interface WatchRun {
  /** Latency of every event after the watcher attached, in order, ms. */
  latenciesMs: number[];
  /** The largest latency of the last three events (those written as the run ends), ms. */
  lastEventsMs: number;
}

/** How a follower is started for a session. */
export type Follower = (sessionId: string) => string[];
export const WATCH: Follower = (id) => ["watch", id, "--json"];
export const LOGS_FOLLOW: Follower = (id) => ["logs", id, "-f", "--json"];

export async function measureWatch(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  iterations: number,
  modelMs: number,
  follower: Follower = WATCH,
): Promise<WatchRun> {
  const run = fork(writer, [dataDir, String(iterations), String(modelMs)], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const runExited = new Promise<void>((resolve) => run.once("exit", () => resolve()));
  const sessionId = await new Promise<string>((resolve, reject) => {
    run.once("error", reject);
    run.once("exit", (code) => reject(new Error(`the run exited (${code}) before its session started`)));
    run.once("message", (m: { sessionId: string }) => resolve(m.sessionId));
  });
  const watcher = spawn(process.execPath, [HATLOOP_BIN, "--db", dataDir, ...follower(sessionId)], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const watcherExited = new Promise<void>((resolve) => watcher.once("exit", () => resolve()));
  const arrivals: Array<{ ts: number; at: number }> = [];
  let attached: (() => void) | null = null;
  const attachedNow = new Promise<void>((resolve) => (attached = resolve));
  createInterface({ input: watcher.stdout }).on("line", (line) => {
    const at = wallNow();
    const event = JSON.parse(line) as { ts: number };
    // The first lines are the tail the watcher replays on attach; the run goes on once they are in.
    if (attached) {
      attached();
      attached = null;
      return;
    }
    arrivals.push({ ts: event.ts, at });
  });
  await attachedNow;
  // Let the replay finish before the run goes on, so the lines that follow are all live ones.
  await new Promise((r) => setTimeout(r, 500));
  arrivals.length = 0;
  run.send("go");
  const guard = setTimeout(() => watcher.kill("SIGINT"), 60_000 + iterations * modelMs * 3);
  await Promise.all([runExited, watcherExited]);
  clearTimeout(guard);
  const latenciesMs = arrivals.map((a) => a.at - a.ts);
  return { latenciesMs, lastEventsMs: Math.max(...latenciesMs.slice(-3)) };
}
