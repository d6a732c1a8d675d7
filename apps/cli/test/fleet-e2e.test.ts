import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { fleetStore, openStore } from "@hatloop/db";
import { createTestDatabase } from "@hatloop/db/testing";
import { runHatloop } from "./support/hatloop.js";
import { bareRemote, fleetEnv, fleetScenario, startWorker, type WorkerProcess } from "./support/fleet.js";

// The fleet end to end, on the local Postgres (HATLOOP_TEST_DATABASE_URL) with real processes and a
// bare repository as the remote. Short heartbeat, supervision and lease so a takeover happens within
// seconds; no wall-clock assertion beyond the helpers' hang guard. Run on Node 20 and 22 (.ci/run).

const server = process.env.HATLOOP_TEST_DATABASE_URL;

async function submit(env: Record<string, string>, remote: string, scenario: string, task: string): Promise<string> {
  const ran = await runHatloop(["submit", task, "--repo", remote, "--hat", "editor", "--model", `scripted:${scenario}`, "--json"], env);
  expect(ran.code, ran.stderr).toBe(0);
  return (JSON.parse(ran.stdout) as { id: string }).id;
}

const running = (w: WorkerProcess) => {
  const started = new Set(w.events.filter((e) => e.event === "session started").map((e) => e.session!));
  for (const e of w.events) if (e.event !== "session started" && e.session) started.delete(e.session);
  return [...started];
};

describe.skipIf(!server)("fleet (Postgres, processes, bare remote)", () => {
  it("ten sessions, three workers, one SIGKILLed and one drained: every session completes exactly once per iteration, its branch pushed", async () => {
    const database = await createTestDatabase();
    const { root, remote } = bareRemote();
    const env = fleetEnv(database.url, root);
    const scenario = fleetScenario(root, 6, 400);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await submit(env, remote, scenario, `write the notes, take ${i + 1}`));
    const workers = ["w1", "w2", "w3"].map((name) => startWorker(name, env, ["--concurrency", "2"]));
    const [w1, w2, w3] = workers as [WorkerProcess, WorkerProcess, WorkerProcess];
    try {
      // SIGKILL w1 in the middle of a session (a checkpoint pushed, more to come).
      await w1.waitFor((e) => e.event === "session started");
      await new Promise((r) => setTimeout(r, 1_500));
      const orphans = running(w1);
      expect(orphans.length).toBeGreaterThan(0);
      const killedAt = Date.now();
      w1.kill("SIGKILL");
      // SIGTERM w2 while it runs a session: drained back to the queue.
      await w2.waitFor((e) => e.event === "session started" && !orphans.includes(e.session!));
      w2.kill("SIGTERM");
      const drained = await w2.done;
      expect(drained.code, drained.stderr).toBe(0);
      // w3 takes the orphans over once their jobs' heartbeats expire, and finishes everything.
      const takeovers: number[] = [];
      for (const id of orphans) {
        const taken = await w3.waitFor((e) => e.event === "session started" && e.session === id && Date.parse(e.at) > killedAt);
        takeovers.push(Date.parse(taken.at) - killedAt);
      }
      console.log(
        `fleet takeover after SIGKILL (heartbeat 10s, supervise 1s): ${takeovers.map((ms) => `${(ms / 1000).toFixed(1)}s`).join(", ")}`,
      );
      const store = await openStore({ url: database.url });
      try {
        for (;;) {
          const sessions = await Promise.all(ids.map((id) => store.sessions.get(id)));
          if (sessions.every((s) => s?.status === "completed")) break;
          if (w3.events.some((e) => e.event === "session failed"))
            throw new Error(JSON.stringify(w3.events.filter((e) => e.event === "session failed")));
          await new Promise((r) => setTimeout(r, 500));
        }
        for (const id of ids) {
          const session = (await store.sessions.get(id))!;
          const messages = await store.messages.range(id, 1, 100_000);
          // No stored message duplicated or lost: seqs 1..n.
          expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1));
          // No iteration run twice: one model answer per iteration, iterations 1..final in order.
          const answers = messages.filter((m) => m.kind === "conversation" && m.message.role === "assistant").map((m) => m.iteration);
          expect(answers).toEqual(answers.map((_, i) => i + 1));
          expect(answers.length).toBe(session.iteration);
          // The remote's task branch holds the final checkpoint's tree.
          const final = await store.checkpoints.latest(id);
          expect(final?.reason).toBe("completion");
          const tip = execFileSync("git", ["--git-dir", remote, "rev-parse", `refs/heads/${session.branch}`], { encoding: "utf8" }).trim();
          expect(tip).toBe(final!.gitCommit);
          const files = execFileSync("git", ["--git-dir", remote, "ls-tree", "-r", "--name-only", tip], { encoding: "utf8" });
          expect(files).toContain("notes/6.txt");
        }
        // No job left in the queue or running.
        const rows = await fleetStore(store.database.db).list(ids, { schema: "pgboss", name: "hatloop-sessions" });
        expect(rows.map((r) => r.queueState)).toEqual(ids.map(() => null));
      } finally {
        await store.close();
      }
    } finally {
      for (const w of workers) w.kill("SIGKILL");
      await Promise.all(workers.map((w) => w.done));
      await database.drop();
    }
  });
});
