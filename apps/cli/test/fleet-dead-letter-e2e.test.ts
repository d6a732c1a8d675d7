import { renameSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fleetStore } from "@hatloop/db";
import { queueStateOf } from "../src/fleet/follow.js";
import { runHatloop } from "./support/hatloop.js";
import { until } from "./support/until.js";
import { scenarioIn, startWorker, submit, withFleet } from "./support/fleet.js";

// A session that fails to start (its repository cannot be fetched) on the local Postgres with a real
// worker: the start is tried again after the backoff, then the session is dead-lettered (ls and show
// say so, with the error); `hatloop retry` queues it again and, the repository back, a worker
// completes it; `hatloop rerun` runs its task again as a new session. Bad input is one line and its
// exit code. Run on Node 20 and 22 (.ci/run).

const BACKOFF_MS = 2_000;

describe("fleet dead letters (Postgres, a worker, a bare remote)", { tags: ["postgres"] }, () => {
  it("failed starts are retried after the backoff, then dead-lettered; retry re-queues it, rerun makes a new session", async () => {
    await withFleet(
      async ({ store, root, remote, env, workers }) => {
        const scenario = scenarioIn(root, "one", 1, 0);
        const id = await submit(env, remote, scenario, "doomed at first", ["--priority", "2"]);
        // Not dead-lettered: retry refuses (exit 2), and an unknown session is exit 1.
        const early = await runHatloop(["retry", id], env);
        expect(early.code).toBe(2);
        expect(early.stderr).toBe(
          `hatloop: session ${id.slice(0, 8)} is not dead-lettered (only a session whose starts failed is retried; resume continues others)\n`,
        );
        const unknown = await runHatloop(["retry", "ffffffff"], env);
        expect(unknown.code).toBe(1);
        expect(unknown.stderr).toMatch(/^hatloop: no session matches "ffffffff"/);

        // The repository goes away before any worker has cloned it.
        const moved = `${remote}.moved`;
        renameSync(remote, moved);
        const worker = startWorker("w1", env);
        workers.push(worker);
        const dead = await worker.waitFor((e) => e.event === "session dead-lettered" && e.session === id);
        const failed = worker.events.filter((e) => e.event === "session start failed" && e.session === id);
        expect(failed).toHaveLength(1);
        expect(failed[0]).toMatchObject({ attempt: 1, retryInSeconds: BACKOFF_MS / 1_000 });
        // The second start came no sooner than the backoff after the first failed.
        expect(Date.parse(dead.at) - Date.parse(failed[0]!.at)).toBeGreaterThanOrEqual(BACKOFF_MS - 100);
        expect(dead).toMatchObject({ attempts: 2 });
        await until("the job ended", async () => (await queueStateOf(store, id)) === null);

        const row = (await fleetStore(store.database.db).get(id))!;
        expect(row).toMatchObject({ startAttempts: 2, deadLetteredAt: expect.any(Date) });
        expect(row.startError).toContain(remote);
        expect(await store.sessions.get(id)).toMatchObject({ status: "paused", lastError: row.startError });
        const listed = JSON.parse((await runHatloop(["ls", "--json"], env)).stdout) as Array<{
          id: string;
          status: string;
          fleet: unknown;
        }>;
        expect(listed.find((s) => s.id === id)).toMatchObject({
          status: "dead-lettered",
          fleet: { deadLettered: true, startError: row.startError },
        });
        const shown = (await runHatloop(["show", id], env)).stdout;
        expect(shown).toMatch(/^status +dead-lettered \(its starts failed 2 times \(hatloop retry queues it again\)\)$/m);
        expect(shown).toContain(`start      failed: ${row.startError}`);

        // The repository is back: retry queues it again, and the worker completes it.
        renameSync(moved, remote);
        const retried = await runHatloop(["retry", id.slice(0, 8)], env);
        expect(retried.code, retried.stderr).toBe(0);
        expect(retried.stdout).toBe(`session ${id.slice(0, 8)} is queued again; a worker tries to start it\n`);
        await worker.waitFor((e) => e.event === "session ended" && e.session === id && e.status === "completed");
        expect(await fleetStore(store.database.db).get(id)).toMatchObject({ startAttempts: 0, startError: null, deadLetteredAt: null });
        const again = await runHatloop(["retry", id], env);
        expect(again.code).toBe(2);

        // rerun: the same task as a new session, which the worker completes too.
        const rerun = await runHatloop(["rerun", id, "--json"], env);
        expect(rerun.code, rerun.stderr).toBe(0);
        const { id: next, from } = JSON.parse(rerun.stdout) as { id: string; from: string };
        expect(from).toBe(id);
        expect(next).not.toBe(id);
        await worker.waitFor((e) => e.event === "session ended" && e.session === next && e.status === "completed");
        expect(await store.sessions.get(next)).toMatchObject({
          task: "doomed at first",
          repoPath: remote,
          model: (await store.sessions.get(id))!.model,
        });
        expect(await fleetStore(store.database.db).get(next)).toMatchObject({ priority: 2, repoUrl: remote, startAttempts: 0 });
      },
      { HATLOOP_FLEET__START_ATTEMPTS: "2", HATLOOP_FLEET__START_BACKOFF: `${BACKOFF_MS / 1_000}s` },
    );
  });
});
