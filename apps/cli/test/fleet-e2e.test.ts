import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { toolResults, toolUses, type Message } from "@hatloop/context";
import { fleetStore, openStore, type DbStore } from "@hatloop/db";
import { createTestDatabase } from "@hatloop/db/testing";
import { until } from "./support/until.js";
import { bareRemote, expectExactlyOnce, fleetEnv, fleetScenario, startWorker, submit, type WorkerProcess } from "./support/fleet.js";

// The fleet end to end, on the local Postgres (HATLOOP_TEST_DATABASE_URL) with real processes and a
// bare repository as the remote. The default heartbeat, supervision and poll (a takeover within
// seconds), a short lease; no wall-clock assertion beyond the helpers' hang guard. Run on Node 20 and 22 (.ci/run).

const STEPS = 6;

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The checkpoint a takeover restored: the newest with the commit its worktree started at. */
async function restoredCheckpoint(store: DbStore, id: string, commit: unknown) {
  const found = (await store.checkpoints.list(id, { limit: 100 })).find((c) => c.gitCommit === commit);
  expect(found, "the takeover started at a checkpoint's commit").toBeDefined();
  return found!;
}

/**
 * The notes the session's write_file calls wrote, by their results: `done` ran and were answered;
 * `finished` ran but the kill came before the answer was stored (resume answered "Finished (ok) just
 * before the hatloop process stopped"): their files are real, and kept when their snapshot was pushed.
 * A call a drain or a kill stopped before it ran has an "Interrupted" result, and the scripted model
 * does not write that note again.
 */
function writtenNotes(messages: Message[]): { done: string[]; finished: string[] } {
  const results = new Map(messages.flatMap(toolResults).map((r) => [r.tool_use_id, r]));
  const writes = messages.flatMap(toolUses).filter((use) => use.name === "write_file");
  const pathsOf = (keep: (result: ReturnType<typeof results.get>) => boolean) => [
    ...new Set(writes.filter((use) => keep(results.get(use.id))).map((use) => (use.input as { path: string }).path)),
  ];
  return {
    done: pathsOf((r) => r !== undefined && !r.is_error),
    finished: pathsOf((r) => r?.is_error === true && JSON.stringify(r.content).includes("Finished (ok) just before")),
  };
}

const running = (w: WorkerProcess) => {
  const started = new Set(w.events.filter((e) => e.event === "session started").map((e) => e.session!));
  for (const e of w.events) if (e.event !== "session started" && e.session) started.delete(e.session);
  return [...started];
};

describe("fleet (Postgres, processes, bare remote)", { tags: ["postgres"] }, () => {
  it("ten sessions, three workers, one SIGKILLed and one drained: every session completes exactly once per iteration, its branch pushed", async () => {
    const database = await createTestDatabase({ migrated: true });
    const store = await openStore({ url: database.url });
    const { root, remote } = bareRemote();
    const env = fleetEnv(database.url, root);
    const scenario = fleetScenario(root, STEPS, 400);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await submit(env, remote, scenario, `write the notes, take ${i + 1}`));
    const workers = ["w1", "w2", "w3"].map((name) => startWorker(name, env, ["--concurrency", "2"]));
    const [w1, w2, w3] = workers as [WorkerProcess, WorkerProcess, WorkerProcess];
    try {
      // SIGKILL w1 in the middle of a session: once one it still runs has a checkpoint (pushed before
      // its row is stored) with steps left to do.
      const checkpointed = await until("a checkpoint by w1 of a session it still runs", async () => {
        for (const id of running(w1)) {
          const latest = await store.checkpoints.latest(id);
          if (latest?.gitCommit && latest.iteration > 0 && latest.iteration < STEPS) return id;
        }
        return false;
      });
      const orphans = running(w1);
      expect(orphans).toContain(checkpointed);
      const killedAt = Date.now();
      w1.kill("SIGKILL");
      // SIGTERM w2 while it runs a session: drained back to the queue.
      await until("w2 running a session", () => running(w2).some((id) => !orphans.includes(id)));
      w2.kill("SIGTERM");
      const drained = await w2.done;
      expect(drained.code, drained.stderr).toBe(0);
      expect(w2.events.some((e) => e.event === "session back to the queue")).toBe(true);
      // w3 takes the orphans over once their jobs' heartbeats expire, and finishes everything.
      const takeovers: number[] = [];
      const takenOver = new Map<string, { commit?: unknown; at: string }>();
      for (const id of orphans) {
        const taken = await w3.waitFor((e) => e.event === "session started" && e.session === id && Date.parse(e.at) > killedAt);
        takeovers.push(Date.parse(taken.at) - killedAt);
        takenOver.set(id, taken);
        // The one w1 had checkpointed resumes from a checkpoint of a later iteration than the start's.
        if (id === checkpointed) expect((await restoredCheckpoint(store, id, taken.commit)).iteration).toBeGreaterThan(0);
      }
      console.log(
        `fleet takeover after SIGKILL (default heartbeat 10s, supervise 2s, poll 1s): ${takeovers.map((ms) => `${(ms / 1000).toFixed(1)}s`).join(", ")}; median ${(median(takeovers) / 1000).toFixed(1)}s`,
      );
      for (;;) {
        const sessions = await Promise.all(ids.map((id) => store.sessions.get(id)));
        if (sessions.every((s) => s?.status === "completed")) break;
        if (w3.events.some((e) => e.event === "session failed"))
          throw new Error(JSON.stringify(w3.events.filter((e) => e.event === "session failed")));
        await new Promise((r) => setTimeout(r, 500));
      }
      for (const id of ids) {
        // No stored message duplicated or lost, no iteration run twice.
        await expectExactlyOnce(store, id);
        const session = (await store.sessions.get(id))!;
        const messages = await store.messages.range(id, 1, 100_000);
        // The remote's task branch holds the final checkpoint's tree.
        const final = await store.checkpoints.latest(id);
        expect(final?.reason).toBe("completion");
        const tip = execFileSync("git", ["--git-dir", remote, "rev-parse", `refs/heads/${session.branch}`], { encoding: "utf8" }).trim();
        expect(tip).toBe(final!.gitCommit);
        // Every step's note, whichever worker wrote it, those w1 wrote after its last checkpoint too:
        // 0 lost writes (each iteration's files are snapshotted before its turn is closed).
        const files = execFileSync("git", ["--git-dir", remote, "ls-tree", "-r", "--name-only", tip], { encoding: "utf8" }).split("\n");
        const { done, finished } = writtenNotes(messages.map((m) => m.message));
        expect(done.length).toBeGreaterThanOrEqual(STEPS - 1);
        const inTree = files.filter((f) => f.startsWith("notes/"));
        expect(inTree).toEqual(expect.arrayContaining(done));
        for (const extra of inTree.filter((f) => !done.includes(f))) expect(finished).toContain(extra);
      }
      // No job left in the queue or running.
      const rows = await fleetStore(store.database.db).list(ids, { schema: "pgboss", name: "hatloop-sessions" });
      expect(rows.map((r) => r.queueState)).toEqual(ids.map(() => null));
    } finally {
      for (const w of workers) w.kill("SIGKILL");
      await Promise.all(workers.map((w) => w.done));
      await store.close();
      await database.drop();
    }
  });
});
