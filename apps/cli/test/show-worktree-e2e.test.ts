import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "@hatloop/db";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";
import { writeScenario } from "./support/scenario.js";
import { scenarioIn, startWorker, submit, withFleet } from "./support/fleet.js";

// `show` names a session's worktree as something to cd into only when it is there: a worktree
// removed from this machine, one on another machine, and a fleet worker's worktree (removed by the
// worker when its run ended) each say so instead of printing the path as if it could be used.

/** show's worktree line, and show --json's worktreeState. */
async function worktreeOf(id: string, env: Record<string, string>): Promise<{ line: string; state: unknown }> {
  const shown = await runHatloop(["show", id], env);
  expect(shown.code, shown.stderr).toBe(0);
  const line = shown.stdout.split("\n").find((l) => l.startsWith("worktree "))!;
  const json = JSON.parse((await runHatloop(["show", id, "--json"], env)).stdout) as { worktreeState: unknown };
  return { line, state: json.worktreeState };
}

async function setHost(url: string, id: string, host: string): Promise<void> {
  const store = await openStore({ url });
  try {
    await store.sessions.update(id, { host });
  } finally {
    await store.close();
  }
}

describe("show's worktree line", () => {
  it("a path here; gone once removed; on another machine, named as such", async () => {
    const { repo, root } = makeRepo();
    const home = mkdtempSync(join(tmpdir(), "hatloop-show-worktree-"));
    writeFileSync(join(home, "none.json"), "{}");
    const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") };
    const scenario = writeScenario(root, 1, 0);
    const ran = await runHatloop(["run", "one note", "--repo", repo, "--hat", "editor", "--model", `scripted:${scenario}`, "--json"], env);
    expect(ran.code, ran.stderr).toBe(0);
    const [session] = JSON.parse((await runHatloop(["ls", "--json"], env)).stdout) as Array<{ id: string; worktreePath: string }>;
    const { id, worktreePath: path } = session!;

    expect(await worktreeOf(id, env)).toEqual({ line: `worktree   ${path}`, state: "here" });

    await setHost(join(home, "pglite"), id, "build-box-7");
    expect(await worktreeOf(id, env)).toEqual({ line: `worktree   on build-box-7, not this machine: ${path}`, state: "elsewhere" });

    await setHost(join(home, "pglite"), id, hostname());
    rmSync(path, { recursive: true, force: true });
    expect(await worktreeOf(id, env)).toEqual({ line: `worktree   gone (was ${path}; removed from this machine)`, state: "gone" });
  });

  describe.skipIf(!process.env.HATLOOP_TEST_DATABASE_URL)("of a fleet session (Postgres, a worker)", () => {
    it("none before a worker takes it; gone after its run, wherever the worker was", async () => {
      await withFleet(async ({ store, root, remote, env, workers }) => {
        const id = await submit(env, remote, scenarioIn(root, "one", 1, 0), "one note");
        expect(await worktreeOf(id, env)).toEqual({
          line: "worktree   none yet (a worker makes one when it takes the session)",
          state: "none",
        });
        const worker = startWorker("w1", env);
        workers.push(worker);
        await worker.waitFor((e) => e.event === "session ended" && e.session === id && e.status === "completed");
        const { worktreePath: path, branch } = (await store.sessions.get(id))!;
        const removed = `removed by its worker when the run ended; the work is on the remote's branch ${branch}`;
        expect(await worktreeOf(id, env)).toEqual({ line: `worktree   gone (was ${path}; ${removed})`, state: "gone" });
        await store.sessions.update(id, { host: "worker-box-2" });
        expect(await worktreeOf(id, env)).toEqual({ line: `worktree   gone (was ${path} on worker-box-2; ${removed})`, state: "gone" });
      });
    });
  });
});
