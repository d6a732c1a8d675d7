import { describe, expect, it } from "vitest";
import type { WorkerRow } from "@hatloop/db";
import { HATLOOP, runHatloop } from "./support/hatloop.js";
import { until } from "./support/until.js";
import { scenarioIn, startWorker, submit, withFleet } from "./support/fleet.js";

// The workers table on the local Postgres with real worker processes: each worker's row while it
// runs (sessions running now, its concurrency), a SIGKILLed worker read as lost once its heartbeat is
// old, the worker that took its session over counting a takeover, and a drained worker marked
// stopped. Run on Node 20 and 22 (.ci/run).

type Listed = Omit<WorkerRow, "startedAt" | "heartbeatAt" | "stoppedAt"> & { heartbeatAt: string; stoppedAt: string | null };

describe("fleet workers as data (Postgres, processes, a bare remote)", { tags: ["postgres"] }, () => {
  it("hatloop workers lists each worker's state, sessions and takeovers: running, lost after a SIGKILL, stopped after a drain", async () => {
    await withFleet(async ({ store, root, remote, env, workers }) => {
      const none = await runHatloop(["workers"], env);
      expect(none.code, none.stderr).toBe(0);
      expect(none.stdout).toBe(`No workers. Start one with: ${HATLOOP} --db postgres://... worker\n`);

      const w1 = startWorker("w1", env, ["--concurrency", "2"]);
      const w2 = startWorker("w2", env);
      workers.push(w1, w2);
      await w1.waitFor((e) => e.event === "ready");
      await w2.waitFor((e) => e.event === "ready");
      const list = async () => {
        const ran = await runHatloop(["workers", "--json"], env);
        expect(ran.code, ran.stderr).toBe(0);
        return new Map((JSON.parse(ran.stdout) as Listed[]).map((w) => [w.name, w]));
      };
      const first = await list();
      expect(first.get("w1")).toMatchObject({ state: "running", concurrency: 2, running: 0, takeovers: 0, pid: w1.pid, stoppedAt: null });
      expect(first.get("w2")).toMatchObject({ state: "running", concurrency: 1, running: 0, takeovers: 0, pid: w2.pid });

      const id = await submit(env, remote, scenarioIn(root, "long", 20, 150), "long enough to be taken over");
      const startedBy = (w: typeof w1) => w.events.some((e) => e.event === "session started" && e.session === id);
      await until("a worker started it", () => startedBy(w1) || startedBy(w2));
      const [runner, other] = startedBy(w1) ? [w1, w2] : [w2, w1];
      await until("its row counts the session", async () => (await list()).get(runner.name)?.running === 1);
      await until("two iterations", async () => (await store.sessions.get(id))!.iteration >= 2);

      runner.kill("SIGKILL");
      await runner.done;
      const taken = await other.waitFor((e) => e.event === "session started" && e.session === id);
      expect(taken.takeover).toBe(true);
      await until("the other counts a takeover", async () => (await list()).get(other.name)?.takeovers === 1);
      await until("the killed one is lost", async () => (await list()).get(runner.name)?.state === "lost");
      await other.waitFor((e) => e.event === "session ended" && e.session === id && e.status === "completed");

      other.kill("SIGTERM");
      expect((await other.done).code).toBe(0);
      const last = await list();
      expect(last.get(other.name)).toMatchObject({ state: "stopped", running: 0, takeovers: 1, stoppedAt: expect.any(String) });
      expect(last.get(runner.name)).toMatchObject({ state: "lost", takeovers: 0 });
      const table = (await runHatloop(["workers"], env)).stdout.split("\n");
      expect(table[0]).toMatch(/^NAME +STATE +RUNNING +CONCURRENCY +TAKEOVERS +HOST +PID +STARTED +HEARTBEAT$/);
      expect(table.find((l) => l.startsWith(`${other.name} `))).toMatch(/ stopped +0 +\d+ +1 /);
      expect(table.find((l) => l.startsWith(`${runner.name} `))).toMatch(/ lost /);
    });
  });
});
