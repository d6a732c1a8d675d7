import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { textOf, toolResults, toolUses } from "@hatloop/context";
import { until } from "./support/until.js";
import { startWorker, submit, withFleet, fleetScenario, type Fleet } from "./support/fleet.js";

// A takeover keeps the killed worker's writes: every iteration that changed files is snapshotted
// (a commit on a hidden ref of the remote) before its turn is closed, and the next worker restores
// the newest snapshot over the checkpoint's tree. What still cannot be restored (a kill before the
// snapshot) is named to the model with the resume packet.

const STEPS = 8;

/**
 * The notes the session's write_file calls wrote: `done` were answered; `finished` ran but the kill
 * came before their answer was stored (resume said "Finished (ok) just before ..."): real files too.
 */
async function writtenNotes(fleet: Fleet, id: string): Promise<{ done: string[]; finished: string[] }> {
  const messages = (await fleet.store.messages.range(id, 1, 100_000)).map((m) => m.message);
  const results = new Map(messages.flatMap(toolResults).map((r) => [r.tool_use_id, r]));
  const writes = messages.flatMap(toolUses).filter((u) => u.name === "write_file");
  const pathsOf = (keep: (result: ReturnType<typeof results.get>) => boolean) =>
    [...new Set(writes.filter((u) => keep(results.get(u.id))).map((u) => (u.input as { path: string }).path))].sort();
  return {
    done: pathsOf((r) => r !== undefined && !r.is_error),
    finished: pathsOf((r) => r?.is_error === true && JSON.stringify(r.content).includes("Finished (ok) just before")),
  };
}

function treeNotes(fleet: Fleet, commit: string): string[] {
  const files = execFileSync("git", ["--git-dir", fleet.remote, "ls-tree", "-r", "--name-only", commit], { encoding: "utf8" });
  return files
    .split("\n")
    .filter((f) => f.startsWith("notes/"))
    .sort();
}

async function completed(fleet: Fleet, id: string): Promise<void> {
  await until("the session completed", async () => (await fleet.store.sessions.get(id))?.status === "completed");
}

describe("fleet takeover keeps the killed worker's writes (Postgres, processes, bare remote)", { tags: ["postgres"] }, () => {
  it("restores the writes made after the last checkpoint: 0 lost writes", () =>
    withFleet(
      async (fleet) => {
        const id = await submit(fleet.env, fleet.remote, fleetScenario(fleet.root, STEPS, 300), "write the notes");
        const w1 = startWorker("w1", fleet.env);
        fleet.workers.push(w1);
        // Killed four iterations in, with only the start's checkpoint: everything since is in snapshots alone.
        await until("w1 four iterations in", async () => ((await fleet.store.sessions.get(id))?.iteration ?? 0) >= 4);
        w1.kill("SIGKILL");
        await w1.done;
        expect((await fleet.store.checkpoints.latest(id))?.iteration).toBe(0);
        const w2 = startWorker("w2", fleet.env);
        fleet.workers.push(w2);
        const taken = await w2.waitFor((e) => e.event === "session started" && e.session === id);
        expect(taken.snapshot).toBeGreaterThanOrEqual(4);
        await completed(fleet, id);

        const { done, finished } = await writtenNotes(fleet, id);
        expect(done.length).toBeGreaterThanOrEqual(STEPS - 1);
        const inTree = treeNotes(fleet, (await fleet.store.checkpoints.latest(id))!.gitCommit!);
        expect(inTree).toEqual(expect.arrayContaining(done)); // 0 lost writes
        for (const extra of inTree.filter((f) => !done.includes(f))) expect(finished).toContain(extra);
      },
      { HATLOOP_CHECKPOINT__INTERVAL: "100" },
    ));

  it("names to the model what it could not restore: a kill after a write, before its snapshot", () =>
    withFleet(async (fleet) => {
      const id = await submit(fleet.env, fleet.remote, fleetScenario(fleet.root, 3, 0), "write the notes");
      const w1 = startWorker("w1", { ...fleet.env, HATLOOP_FAILPOINT: "after-tool-result" });
      fleet.workers.push(w1);
      expect((await w1.done).signal).toBe("SIGKILL"); // right after notes/1.txt was written
      const w2 = startWorker("w2", fleet.env);
      fleet.workers.push(w2);
      const taken = await w2.waitFor((e) => e.event === "session started" && e.session === id);
      expect(taken.unrestored).toMatch(
        /through iteration 0; what these later calls did may be missing: write_file notes\/1\.txt \(iteration 1\)/,
      );
      await completed(fleet, id);
      const said = (await fleet.store.messages.range(id, 1, 100_000)).filter((m) => m.kind === "injected").map((m) => textOf(m.message));
      expect(said.some((text) => text.includes("may be missing: write_file notes/1.txt"))).toBe(true);
    }));
});
