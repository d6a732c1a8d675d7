import { describe, expect, it } from "vitest";
import { defaultConfig } from "@hatloop/core";
import { fleetStore } from "@hatloop/db";
import { CliError, ExitCode } from "../src/errors.js";
import { rerunSession, retrySession } from "../src/fleet/actions.js";
import { listWorkers } from "../src/fleet/presence.js";
import { openQueue } from "../src/fleet/queue.js";
import { queueInfo } from "../src/fleet/queue-info.js";
import { addSchedule } from "../src/fleet/schedules.js";
import { listSessions } from "../src/fleet/session-list.js";
import { costTotals } from "../src/fleet/totals.js";
import { sessionsInStore } from "../src/fleet/sessions-in-store.js";
import { runHatloop } from "./support/hatloop.js";
import { scenarioIn, startWorker, submit, withFleet } from "./support/fleet.js";

// The plain data functions the web console calls (listSessions, costTotals, listWorkers, queueInfo,
// retrySession, rerunSession), called as it calls them, on the local Postgres with real submits and
// a real worker; and ls's fleet filters (--status queued / dead-lettered, --worker) through the
// binary. Run on Node 20 and 22 (.ci/run).

/** What a thrown CliError says and exits with. */
async function refusal(promise: Promise<unknown>): Promise<{ message: string; exitCode: number }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CliError);
  return { message: (error as CliError).message, exitCode: (error as CliError).exitCode };
}

describe("the fleet's data for the web console (Postgres, a worker, a bare remote)", { tags: ["postgres"] }, () => {
  it("lists sessions by shown status, worker and repository, totals them, says what the queue holds, retries and re-runs", async () => {
    await withFleet(async ({ store, root, remote, env, workers }) => {
      const config = { ...defaultConfig(), databaseUrl: env.DATABASE_URL };
      const scenario = scenarioIn(root, "one", 1, 0);
      const low = await submit(env, remote, scenario, "low");
      const high = await submit(env, remote, scenario, "high", ["--priority", "9"]);
      const dead = await submit(env, remote, scenario, "dead");
      const boss = await openQueue(env.DATABASE_URL!, config, { supervise: false });
      try {
        // A session whose start failed as often as allowed, as a worker records it; its job ended.
        const fleet = fleetStore(store.database.db);
        await boss.cancel("hatloop-sessions", (await fleet.get(dead))!.jobId!);
        expect(await fleet.startFailed(dead, "cannot clone", 1)).toEqual({ attempts: 1, deadLettered: true });
        await store.sessions.update(dead, { status: "paused" });
        await addSchedule(boss, {
          name: "weekly",
          cron: "0 4 * * 1",
          submission: { task: "weekly", repoUrl: remote, base: null, priority: 1, config: {}, contextWindow: 1000 },
        });

        const listed = async (query: Parameters<typeof listSessions>[1]) =>
          (await listSessions(sessionsInStore(store), query)).map((s) => s.id);
        expect(await listed({ limit: 10 })).toEqual([dead, high, low]);
        expect(await listed({ statuses: ["queued"], limit: 10 })).toEqual([high, low]);
        expect(await listed({ statuses: ["queued"], limit: 1 })).toEqual([high]);
        expect(await listed({ statuses: ["dead-lettered"], limit: 10 })).toEqual([dead]);
        expect(await listed({ statuses: ["paused"], limit: 10 })).toEqual([]);
        expect(await listed({ repo: remote, statuses: ["queued", "dead-lettered"], limit: 10 })).toEqual([dead, high, low]);
        const [row] = await listSessions(sessionsInStore(store), { statuses: ["dead-lettered"], limit: 1 });
        expect(row).toMatchObject({
          status: "dead-lettered",
          live: false,
          fleet: { queue: null, repo: remote, priority: 0, deadLettered: true, startError: "cannot clone", worker: null },
        });

        const info = await queueInfo(store, boss);
        expect(info).toMatchObject({ queued: [high, low], active: [], retrying: [], deadLettered: [dead] });
        expect(info.schedules).toMatchObject([{ name: "weekly", cron: "0 4 * * 1", task: "weekly", priority: 1, last: null }]);
        expect(info.schedules[0]!.next!.getUTCDay()).toBe(1);

        const totals = await costTotals(sessionsInStore(store), new Date());
        expect(totals.byStatus).toEqual({ queued: 2, "dead-lettered": 1 });
        expect(totals.all).toEqual({ sessions: 3, costUsd: 0 });
        expect(await listWorkers(store)).toEqual([]);

        // retry: only a dead-lettered session (exit 2 else); it is queued again.
        expect(await refusal(retrySession(store, config, high))).toEqual({
          message: `session ${high.slice(0, 8)} is not dead-lettered (only a session whose starts failed is retried; resume continues others)`,
          exitCode: ExitCode.usage,
        });
        expect(await refusal(retrySession(store, config, "nope"))).toEqual({ message: "no session nope", exitCode: ExitCode.failure });
        expect((await retrySession(store, config, dead)).id).toBe(dead);
        expect((await queueInfo(store, boss)).queued).toEqual([high, low, dead]);
        // rerun: a new session, queued with the same priority.
        const again = await rerunSession(store, config, high);
        expect(again.from).toBe(high);
        expect((await queueInfo(store, boss)).queued).toEqual([high, again.id, low, dead]);
      } finally {
        await boss.stop({ graceful: false, close: true });
      }

      // ls through the binary: the fleet's statuses and --worker, once a worker has run them.
      const plain = async (...args: string[]) => (await runHatloop(["ls", "--plain", ...args], env)).stdout;
      expect(await plain("--status", "dead-lettered")).toBe("No sessions match.\n");
      expect((await plain("--status", "queued")).split("\n").filter((l) => / queued /.test(l))).toHaveLength(4);
      const worker = startWorker("w1", env);
      workers.push(worker);
      for (const id of [high, low, dead]) await worker.waitFor((e) => e.event === "session ended" && e.session === id);
      const byWorker = JSON.parse((await runHatloop(["ls", "--json", "--worker", "w1", "--status", "completed"], env)).stdout) as Array<{
        id: string;
      }>;
      expect(byWorker.map((s) => s.id)).toEqual(expect.arrayContaining([high, low, dead]));
      expect(await listSessions(sessionsInStore(store), { worker: "w2", limit: 10 })).toEqual([]);
      const [w1] = await listWorkers(store);
      expect(w1).toMatchObject({ name: "w1", state: "running", concurrency: 1 });
    });
  });
});
