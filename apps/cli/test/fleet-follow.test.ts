import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { queueStateOf } from "../src/fleet/follow.js";
import { HUNG_MS, type Ran } from "./support/hatloop.js";
import { hasTmux, Tmux } from "./support/tmux.js";
import { until } from "./support/until.js";
import { scenarioIn, startWorker, submit, withFleet } from "./support/fleet.js";

// Following a fleet session from another terminal, on the local Postgres with real processes and a
// bare remote: `watch` and `logs -f` wait while it is queued, follow its runs on one worker and,
// after a drain, on another, and end when it completes; `ls` on a terminal shows it queued, then
// its worker. A worker at --concurrency 1 never holds two leases. No wall-clock assertion.

const bin = new URL("../dist/bin.js", import.meta.url).pathname;

/** A hatloop command left running; its output so far, and how it ended. */
function follower(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, HOME: env.HATLOOP_HOME, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), HUNG_MS);
  const done = new Promise<Ran>((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
  return {
    stdout: () => stdout,
    running: () => child.exitCode === null && child.signalCode === null,
    done,
    kill: () => child.kill("SIGKILL"),
  };
}

const count = (text: string, part: string) => text.split(part).length - 1;

let tmux: Tmux | undefined;
afterEach(() => tmux?.kill());

describe("following a fleet session (Postgres, processes, bare remote)", { tags: ["postgres"] }, () => {
  it("watch and logs -f wait while it is queued, follow it across a drain to another worker and end when it completes; ls on a terminal shows it queued, then its worker; a worker at concurrency 1 holds one lease at a time", async () => {
    await withFleet(async ({ store, root, remote, env, workers }) => {
      const id = await submit(env, remote, scenarioIn(root, "long", 20, 150), "followed");
      const other = await submit(env, remote, scenarioIn(root, "short", 3, 0), "alongside");
      const short = id.slice(0, 8);
      const queuedLine = `hatloop: session ${short} is queued, waiting for a worker`;
      const followers = [follower(["watch", id, "--plain"], env), follower(["logs", id, "-f"], env)];
      let watching = true;
      let watchLeases = Promise.resolve();
      try {
        // Queued, no worker: both say so once and keep waiting.
        await until("both followers say it is queued", () => {
          if (!followers.every((f) => f.running())) throw new Error(`a follower ended: ${followers.map((f) => f.stdout()).join("\n")}`);
          return followers.every((f) => f.stdout().includes(queuedLine));
        });
        if (requireOrSkip(hasTmux(), "tmux")) {
          tmux = new Tmux();
          const vars = Object.entries(env)
            .map(([k, v]) => `${k}=${v}`)
            .join(" ");
          tmux.run("new-session", "-d", "-s", "ls", "-x", "140", "-y", "20", `env -u CI ${vars} ${process.execPath} ${bin} ls; sleep 600`);
          const screen = await tmux.waitFor("ls", new RegExp(`^${short} +queued `, "m"));
          expect(screen).toMatch(/^ID +STATUS +HAT +ITER +COST\/BUDGET +UPDATED +WORKER +TASK/m);
          expect(screen).toMatch(new RegExp(`^${short} +queued .* - +followed`, "m"));
        }

        // One worker at concurrency 1, both sessions queued: it holds at most one lease at a time.
        let held = 0;
        watchLeases = (async () => {
          while (watching) {
            const sessions = await Promise.all([id, other].map((s) => store.sessions.get(s)));
            held = Math.max(held, sessions.filter((s) => s!.lease.holder !== null).length);
            await new Promise((r) => setTimeout(r, 50));
          }
        })();
        const w1 = startWorker("w1", env, ["--concurrency", "1"]);
        workers.push(w1);
        await w1.waitFor((e) => e.event === "session started" && e.session === id);
        if (tmux) await tmux.waitFor("ls", new RegExp(`^${short} +▶ running .* w1 +followed`, "m"));
        await until("two iterations", async () => (await store.sessions.get(id))!.iteration >= 2);

        // Drained back to the queue: the followers go on, and say again that it waits.
        w1.kill("SIGTERM");
        expect((await w1.done).code).toBe(0);
        expect(await queueStateOf(store, id)).toBe("queued");
        await until("both followers say it is queued again", () => followers.every((f) => count(f.stdout(), queuedLine) === 2));
        expect(followers.every((f) => f.running())).toBe(true);

        // Another worker takes it over and completes it (and the other session, if w1 left it).
        const w2 = startWorker("w2", env, ["--concurrency", "1"]);
        workers.push(w2);
        await w2.waitFor((e) => e.event === "session ended" && e.session === id && e.status === "completed");
        await until("the other session completed", async () => (await store.sessions.get(other))!.status === "completed");
        watching = false;
        await watchLeases;
        expect(held).toBe(1);

        // Both followers end by themselves once it has completed, having printed both runs to the end.
        for (const f of followers) {
          const ran = await f.done;
          expect(ran.code, ran.stderr).toBe(0);
          const runs = ran.stdout.split(queuedLine);
          expect(runs).toHaveLength(3);
          expect(runs[1]).toMatch(/session [0-9a-f]{8} as .* run by worker w1 \(/);
          expect(runs[1]).toMatch(/hatloop: paused: /);
          expect(runs[2]).toMatch(/resuming session [0-9a-f]{8} as .* run by worker w2 \(/);
          expect(runs[2]).toMatch(/hatloop: completed: task complete/);
          expect(runs[2]).toContain("All notes written.");
        }
      } finally {
        watching = false;
        await watchLeases;
        for (const f of followers) f.kill();
      }
    });
  });
});
