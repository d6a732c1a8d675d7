import { describe, expect, it } from "vitest";
import { fleetStore } from "@hatloop/db";
import { HATLOOP, runHatloop } from "./support/hatloop.js";
import { scenarioIn, startWorker, withFleet } from "./support/fleet.js";

// hatloop schedule / schedules / unschedule on the local Postgres with a real worker: each firing of
// pg-boss's cron (run by the worker) is a new session, made as submit makes one, that the worker runs
// to completion; the list says the next and the last firing; bad input is one line and its exit code.
// A cron fires once a minute at most, so this waits for two minutes' firings. Run on Node 20 and 22
// (.ci/run).

interface Listed {
  name: string;
  cron: string;
  task: string;
  repo: string;
  priority: number;
  next: string | null;
  last: { sessionId: string; at: string } | null;
}

describe("fleet schedules (Postgres, a worker, a bare remote)", { tags: ["postgres"] }, () => {
  it("every firing makes a new session that a worker completes; schedules lists it; unschedule removes it; bad input is refused", async () => {
    await withFleet(async ({ store, root, remote, env, workers }) => {
      const scenario = scenarioIn(root, "one", 1, 0);
      const schedule = (cron: string, ...extra: string[]) =>
        runHatloop(
          ["schedule", cron, "nightly notes", "--repo", remote, "--hat", "editor", "--model", `scripted:${scenario}`, ...extra],
          env,
        );

      const badCron = await schedule("61 * * * *", "--name", "bad");
      expect(badCron.code).toBe(2);
      expect(badCron.stderr).toMatch(/^hatloop: invalid cron expression "61 \* \* \* \*": [^\n]+\n$/);
      const badZone = await schedule("* * * * *", "--tz", "Mars/Olympus");
      expect(badZone.code).toBe(2);
      expect(badZone.stderr).toMatch(/^hatloop: invalid cron expression "\* \* \* \* \*" in time zone Mars\/Olympus: [^\n]+\n$/);
      const badBase = await schedule("* * * * *", "--base", "nope");
      expect(badBase.code).toBe(2);
      expect(badBase.stderr).toBe(`hatloop: the repository ${remote} has no branch nope (its branches: main)\n`);

      const made = await schedule("* * * * *", "--name", "nightly", "--priority", "3", "--json");
      expect(made.code, made.stderr).toBe(0);
      expect(JSON.parse(made.stdout)).toEqual({ name: "nightly" });
      const again = await schedule("0 3 * * *", "--name", "nightly");
      expect(again.code).toBe(2);
      expect(again.stderr).toBe(
        "hatloop: a schedule named nightly exists; remove it first (hatloop unschedule nightly) or pick another --name\n",
      );

      const list = async () => JSON.parse((await runHatloop(["schedules", "--json"], env)).stdout) as Listed[];
      const [listed] = await list();
      expect(listed).toMatchObject({ name: "nightly", cron: "* * * * *", task: "nightly notes", repo: remote, priority: 3, last: null });
      expect(new Date(listed!.next!).getTime()).toBeGreaterThan(Date.now() - 60_000);

      const worker = startWorker("w1", env);
      workers.push(worker);
      const fired = async (n: number) => {
        await worker.waitFor(() => worker.events.filter((e) => e.event === "schedule fired").length >= n);
        return worker.events.filter((e) => e.event === "schedule fired").map((e) => e.session!);
      };
      const [first, second] = await fired(2);
      expect(first).not.toBe(second);
      for (const id of [first!, second!]) {
        await worker.waitFor((e) => e.event === "session ended" && e.session === id && e.status === "completed");
        expect(await store.sessions.get(id)).toMatchObject({ task: "nightly notes", status: "completed", repoPath: remote });
        expect(await fleetStore(store.database.db).get(id)).toMatchObject({ schedule: "nightly", priority: 3, repoUrl: remote });
      }
      const [after] = await list();
      expect(after!.last?.sessionId).toBe(worker.events.filter((e) => e.event === "schedule fired").at(-1)!.session);
      expect((await runHatloop(["show", second!], env)).stdout).toMatch(/^schedule +nightly$/m);
      const table = (await runHatloop(["schedules"], env)).stdout;
      expect(table).toMatch(/^NAME +CRON +NEXT +LAST +REPO +TASK/);
      expect(table).toMatch(/^nightly +\* \* \* \* \* /m);

      const removed = await runHatloop(["unschedule", "nightly"], env);
      expect(removed.code, removed.stderr).toBe(0);
      expect(await list()).toEqual([]);
      expect((await runHatloop(["schedules"], env)).stdout).toBe(
        `No schedules. Add one with: ${HATLOOP} schedule "<cron>" "<task>" --repo URL\n`,
      );
      const unknown = await runHatloop(["unschedule", "nightly"], env);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toBe('hatloop: no schedule named "nightly" (see hatloop schedules)\n');
    });
  });
});
