import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fleetStore } from "@hatloop/db";
import { queueStateOf } from "../src/fleet/follow.js";
import { runHatloop } from "./support/hatloop.js";
import { until } from "./support/until.js";
import { bareRemote, expectExactlyOnce, scenarioIn, startWorker, submit, withFleet } from "./support/fleet.js";

// Controlling the fleet from outside a worker, on the local Postgres with real processes and bare
// remotes: `hatloop stop` of a queued and of a running session (twice on one worker), `hatloop
// resume` of a fleet session, a worker's second signal (stop at once), and fleet.maxPerRepo.
// Everything is observed through the database, the queue, the workers' logs and their directories;
// no wall-clock assertion. Run on Node 20 and 22 (.ci/run).

/** What a worker keeps of its sessions' work: the worktrees left, and each cached repository's worktrees and task branches. */
function workerLeftovers(home: string, worker: string): { worktrees: string[]; registered: number; branches: string[] } {
  const dir = join(home, "fleet", worker);
  const worktrees = existsSync(join(dir, "worktrees")) ? readdirSync(join(dir, "worktrees")) : [];
  const repos = readdirSync(join(dir, "repos")).map((r) => join(dir, "repos", r));
  const git = (repo: string, ...args: string[]) => execFileSync("git", ["--git-dir", repo, ...args], { encoding: "utf8" });
  return {
    worktrees,
    // The bare repository itself is always listed.
    registered: repos.reduce((n, repo) => n + git(repo, "worktree", "list", "--porcelain").split("\n\n").filter(Boolean).length - 1, 0),
    branches: repos.flatMap((repo) => git(repo, "branch", "--list", "hatloop/*").split("\n").filter(Boolean)),
  };
}

describe("fleet control (Postgres, processes, bare remote)", { tags: ["postgres"] }, () => {
  it("stop cancels a queued session (it never runs) and pauses a running one at a checkpoint, twice on one worker; resume re-queues it and a worker completes it; its worktree goes when each run ends", async () => {
    await withFleet(async ({ store, root, remote, env, workers }) => {
      // Queued, no worker yet: stop takes it out of the queue.
      const queued = await submit(env, remote, scenarioIn(root, "short", 2, 0), "queued, then stopped");
      expect(await queueStateOf(store, queued)).toBe("queued");
      const stopped = await runHatloop(["stop", queued, "--json"], env);
      expect(stopped.code, stopped.stderr).toBe(0);
      expect(JSON.parse(stopped.stdout)).toMatchObject({ id: queued, action: "cancelled" });
      expect(await store.sessions.get(queued)).toMatchObject({ status: "paused", stopReason: "stopped (hatloop stop)" });
      expect(await queueStateOf(store, queued)).toBeNull();

      // A long session, then a worker: it runs; stop makes it checkpoint and pause.
      const running = await submit(env, remote, scenarioIn(root, "long", 30, 150), "running, then stopped");
      // ls shows it queued, from the database alone (no worker yet); --json marks it under fleet.
      const listed = JSON.parse((await runHatloop(["ls", "--json"], env)).stdout) as Array<{ id: string; status: string; fleet: unknown }>;
      expect(listed.find((s) => s.id === running)).toMatchObject({
        status: "queued",
        fleet: { queue: "queued", worker: null, repo: remote },
      });
      expect(listed.find((s) => s.id === queued)).toMatchObject({ status: "paused", fleet: { queue: null, worker: null } });
      const table = (await runHatloop(["ls", "--plain"], env)).stdout.split("\n");
      expect(table[0]).toMatch(/STATUS .*WORKER .*TASK/);
      expect(table.find((l) => l.startsWith(running.slice(0, 8)))).toMatch(/ queued .* - /);
      // show agrees with ls.
      expect((await runHatloop(["show", running], env)).stdout).toMatch(/^status +queued$/m);
      // A worktree left by a killed worker of this name goes when the next one starts.
      const home = env.HATLOOP_HOME!;
      const left = join(home, "fleet", "w1", "worktrees", "0badc0de");
      mkdirSync(left, { recursive: true });
      writeFileSync(join(left, "half-done.txt"), "left by a SIGKILL\n");
      const worker = startWorker("w1", env);
      workers.push(worker);
      await worker.waitFor((e) => e.event === "ready");
      expect(existsSync(left)).toBe(false);
      await worker.waitFor((e) => e.event === "session started" && e.session === running);
      // Which worker runs it: ls and show name it.
      const shown = JSON.parse((await runHatloop(["show", running, "--json"], env)).stdout) as { fleet: unknown };
      expect(shown.fleet).toMatchObject({ queue: "active", worker: "w1" });
      expect((await runHatloop(["show", running], env)).stdout).toContain("fleet      taken by a worker; worker w1");
      // ...and logs (and watch, which prints the same lines) say who started it.
      expect((await runHatloop(["logs", running], env)).stdout).toMatch(/starting session .* run by worker w1 \(/);
      expect((await runHatloop(["ls", "--plain"], env)).stdout.split("\n").find((l) => l.startsWith(running.slice(0, 8)))).toMatch(
        / running .* w1 /,
      );
      await until("two iterations", async () => (await store.sessions.get(running))!.iteration >= 2);
      const asked = await runHatloop(["stop", running.slice(0, 8), "--json"], env);
      expect(asked.code, asked.stderr).toBe(0);
      expect(JSON.parse(asked.stdout)).toMatchObject({ id: running, action: "requested" });
      await worker.waitFor((e) => e.event === "session ended" && e.session === running);
      const paused = (await store.sessions.get(running))!;
      expect(paused.status).toBe("paused");
      expect(paused.iteration).toBeLessThan(31);
      const checkpoint = (await store.checkpoints.latest(running))!;
      expect(checkpoint.iteration).toBe(paused.iteration);
      expect(checkpoint.gitCommit).not.toBeNull();
      await until("the job completed", async () => (await queueStateOf(store, running)) === null);
      expect((await fleetStore(store.database.db).get(running))!.stopRequestedAt).toBeNull();
      // The run has ended: its worktree and the worker's copy of its branch are gone (the remote has the checkpoint).
      expect(workerLeftovers(home, "w1")).toEqual({ worktrees: [], registered: 0, branches: [] });

      // The cancelled one never ran: not started by the worker, nothing stored.
      expect(worker.events.some((e) => e.session === queued)).toBe(false);
      expect(await store.messages.count(queued)).toBe(0);

      // resume puts the running one back in the queue; the same worker picks it up, and a second
      // stop pauses it again (the worker has acted on a stop of this session before).
      const resumed = await runHatloop(["resume", running], env);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain("queued again");
      const ends = () => worker.events.filter((e) => e.event === "session ended" && e.session === running);
      await until("two more iterations", async () => (await store.sessions.get(running))!.iteration >= paused.iteration + 2);
      const again = await runHatloop(["stop", running, "--json"], env);
      expect(JSON.parse(again.stdout)).toMatchObject({ id: running, action: "requested" });
      await until("the second run's end", () => ends().length >= 2);
      expect(ends()[1]).toMatchObject({ status: "paused" });
      const pausedAgain = (await store.sessions.get(running))!;
      expect(pausedAgain).toMatchObject({ status: "paused", stopReason: paused.stopReason });
      expect(pausedAgain.iteration).toBeLessThan(31);
      await until("the job completed", async () => (await queueStateOf(store, running)) === null);
      expect((await fleetStore(store.database.db).get(running))!.stopRequestedAt).toBeNull();
      expect(workerLeftovers(home, "w1")).toEqual({ worktrees: [], registered: 0, branches: [] });

      // Resumed once more, it runs to completion.
      expect((await runHatloop(["resume", running], env)).code).toBe(0);
      await worker.waitFor((e) => e.event === "session ended" && e.session === running && e.status === "completed");
      const done = (await store.sessions.get(running))!;
      expect(done.status).toBe("completed");
      expect(done.iteration).toBe(31);
      await expectExactlyOnce(store, running);
      // Resumed from the checkpoint each time: started again at the paused iteration, not from scratch.
      const starts = worker.events.filter((e) => e.event === "session started" && e.session === running);
      expect(starts.map((e) => e.iteration)).toEqual([0, paused.iteration, pausedAgain.iteration]);
      await until("the job completed", async () => (await queueStateOf(store, running)) === null);
      expect(workerLeftovers(home, "w1")).toEqual({ worktrees: [], registered: 0, branches: [] });
      // The stopped-while-queued one is still paused and out of the queue.
      expect((await store.sessions.get(queued))!.status).toBe("paused");
      expect(await queueStateOf(store, queued)).toBeNull();
    });
  });

  it("a second signal stops a worker at once: its jobs go back to the queue, its leases are released, and another worker completes the sessions", async () => {
    await withFleet(async ({ store, root, remote, env, workers }) => {
      const scenario = scenarioIn(root, "long", 12, 150);
      const ids = [await submit(env, remote, scenario, "first"), await submit(env, remote, scenario, "second")];
      const w1 = startWorker("w1", env, ["--concurrency", "2"]);
      workers.push(w1);
      for (const id of ids) await w1.waitFor((e) => e.event === "session started" && e.session === id);
      await until("an iteration of each", async () =>
        (await Promise.all(ids.map((id) => store.sessions.get(id)))).every((s) => s!.iteration >= 1),
      );
      // SIGTERM starts a drain; SIGINT right behind it stops at once.
      w1.kill("SIGTERM");
      w1.kill("SIGINT");
      const exited = await w1.done;
      expect(exited.code, exited.stderr).toBe(130);
      expect(w1.events.some((e) => e.event === "stopping at once")).toBe(true);
      for (const id of ids) {
        const session = (await store.sessions.get(id))!;
        expect(session.status).not.toBe("completed");
        expect(session.lease.holder).toBeNull();
        expect(await queueStateOf(store, id)).toBe("queued");
      }
      // Another worker takes both over and completes them, every iteration once.
      const w2 = startWorker("w2", env, ["--concurrency", "2"]);
      workers.push(w2);
      for (const id of ids) await w2.waitFor((e) => e.event === "session ended" && e.session === id && e.status === "completed");
      for (const id of ids) {
        expect((await store.sessions.get(id))!.status).toBe("completed");
        await expectExactlyOnce(store, id);
        // The job ends once the worker has let the session go (lease, worktree), just after its log line.
        await until("its job completed", async () => (await queueStateOf(store, id)) === null);
      }
    });
  });

  it("a question ends the session waiting on its worker (no terminal held); hatloop answer queues it again and a worker completes it", async () => {
    await withFleet(async ({ store, root, remote, env, workers }) => {
      const scenario = join(root, "asks.jsonl");
      const turns = [
        { text: "First note.", tools: [{ name: "write_file", input: { path: "notes/1.txt", content: "one\n" } }] },
        { text: "A choice for you.", tools: [{ name: "ask_user", input: { question: "Keep the notes in English?" } }] },
        { text: "Second note.", tools: [{ name: "write_file", input: { path: "notes/2.txt", content: "two\n" } }] },
        { text: "Done.", tools: [{ name: "task_complete", input: { summary: "notes written" } }] },
      ];
      writeFileSync(scenario, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
      const id = await submit(env, remote, scenario, "notes, asking once");
      const w1 = startWorker("w1", env);
      workers.push(w1);
      await w1.waitFor((e) => e.event === "session ended" && e.session === id && e.status === "waiting");
      expect((await store.sessions.get(id))!).toMatchObject({ status: "waiting", question: { text: "Keep the notes in English?" } });
      // Answered at once, as a script woken by the onWaiting hook would: the worker may still be letting
      // the session go (lease, job); answer waits for that, then queues it again.
      const answered = await runHatloop(["answer", id.slice(0, 8), "yes, English"], env);
      expect(answered.code, answered.stderr).toBe(0);
      expect(answered.stdout).toContain("is queued again");
      await w1.waitFor((e) => e.event === "session ended" && e.session === id && e.status === "completed");
      const session = (await store.sessions.get(id))!;
      expect(session).toMatchObject({ status: "completed", question: null });
      await expectExactlyOnce(store, id);
      const messages = await store.messages.range(id, 1, 1_000);
      expect(messages.filter((m) => JSON.stringify(m.message).includes("yes, English"))).toHaveLength(1);
    });
  });

  it("fleet.maxPerRepo: sessions of one repository run one at a time across workers, another repository's alongside", async () => {
    await withFleet(
      async ({ store, root, remote, env, workers }) => {
        const a = { root, remote };
        const b = bareRemote();
        const scenario = scenarioIn(a.root, "paced", 6, 100);
        const repoA = [
          await submit(env, a.remote, scenario, "a1"),
          await submit(env, a.remote, scenario, "a2"),
          await submit(env, a.remote, scenario, "a3"),
        ];
        const repoB = [await submit(env, b.remote, scenario, "b1")];
        workers.push(startWorker("w1", env, ["--concurrency", "2"]), startWorker("w2", env, ["--concurrency", "2"]));
        // While they work, no two sessions of repository A ever hold a lease at the same time.
        let overlapA = 0;
        const ids = [...repoA, ...repoB];
        for (;;) {
          const sessions = await Promise.all(ids.map((id) => store.sessions.get(id)));
          overlapA = Math.max(overlapA, sessions.filter((s) => repoA.includes(s!.id) && s!.lease.holder !== null).length);
          if (sessions.every((s) => s!.status === "completed")) break;
          if (workers.some((w) => w.events.some((e) => e.event === "session failed"))) throw new Error("a session failed");
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(overlapA).toBeLessThanOrEqual(1);
        await until("every end in the logs", async () =>
          ids.every((id) => workers.some((w) => w.events.some((e) => e.event === "session ended" && e.session === id))),
        );
        // The workers' logs agree: each A session started after the previous one ended.
        const log = workers.flatMap((w) => w.events);
        const span = (id: string) => ({
          start: Date.parse(log.find((e) => e.event === "session started" && e.session === id)!.at),
          end: Date.parse(log.find((e) => e.event === "session ended" && e.session === id)!.at),
        });
        const spans = repoA.map(span).sort((x, y) => x.start - y.start);
        for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end);
        // Each session started exactly once (no retries needed) and completed once.
        for (const id of ids) {
          expect(log.filter((e) => e.event === "session started" && e.session === id)).toHaveLength(1);
          await expectExactlyOnce(store, id);
        }
      },
      { HATLOOP_FLEET__MAX_PER_REPO: "1" },
    );
  });
});
