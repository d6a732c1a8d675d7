import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type DbStore } from "@hatloop/db";
import { runHatloop, startHatloop } from "./support/hatloop.js";
import { newSession } from "./support/session.js";

// `logs -f` follows a session on the path `watch` takes (src/sinks/follow-lines.ts): events are
// pushed to it as they are stored, it ends with the run's session.end, and it does not wait for a
// run whose runner is gone. This process holds the embedded database and plays the run.

let home: string;
let env: Record<string, string>;
let store: DbStore;

/** A running session whose lease `pid` (a process of this machine) holds, with one event stored. */
async function runningSession(id: string, pid: number): Promise<void> {
  await store.sessions.create(newSession({ id, status: "running" }));
  expect(await store.sessions.acquireLease(id, `${hostname()}:${pid}`, 10 * 60_000)).not.toBeNull();
  await store.events.append(id, [{ iteration: 1, type: "iteration.start", payload: { hat: "planner" }, version: 1 }]);
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "hatloop-logs-follow-"));
  env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") };
  store = await openStore({ url: join(home, "pglite") });
});

afterAll(async () => {
  await store.close();
});

describe("hatloop logs -f", () => {
  it("prints each event as the run stores it and ends with the run's session.end", async () => {
    const id = "5e55a0e0-0000-4000-8000-00000000f001";
    await runningSession(id, process.pid);
    const follower = startHatloop(["logs", id, "-f", "--json"], env);
    await follower.waitFor((e) => e.type === "iteration.start");
    await store.events.append(id, [
      { iteration: 1, type: "tool.call", payload: { id: "t1", name: "read_file", summary: "a.ts" }, version: 1 },
    ]);
    await follower.waitFor((e) => e.type === "tool.call");
    await store.sessions.update(id, { status: "completed" });
    await store.events.append(id, [
      { iteration: 1, type: "session.end", payload: { status: "completed", reason: "done", iterations: 1, costUsd: 0 }, version: 1 },
    ]);
    const done = await follower.done;
    expect(done.code, done.stderr).toBe(0);
    const types = done.stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types).toEqual(["iteration.start", "tool.call", "session.end"]);
  });

  it("prints what is stored and ends when the run's process is gone, as ls shows it interrupted", async () => {
    const id = "5e55a0e0-0000-4000-8000-00000000f002";
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid;
    await runningSession(id, gone);
    const out = await runHatloop(["logs", id, "-f", "--json"], env);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('"iteration.start"');
  });
});
