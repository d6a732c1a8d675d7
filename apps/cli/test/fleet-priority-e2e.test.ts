import { describe, expect, it } from "vitest";
import { runHatloop } from "./support/hatloop.js";
import { scenarioIn, startWorker, submit, withFleet } from "./support/fleet.js";

// submit --priority: a worker takes the highest first, whatever the order they were submitted in;
// ls and show say each one's priority; a priority that is not a whole number is a usage error.
// Run on Node 20 and 22 (.ci/run).

describe("fleet priorities (Postgres, a worker, a bare remote)", { tags: ["postgres"] }, () => {
  it("a worker at concurrency 1 starts the sessions by priority, then by submission; ls and show name the priority", async () => {
    await withFleet(async ({ root, remote, env, workers }) => {
      const scenario = scenarioIn(root, "one", 1, 0);
      const bad = await runHatloop(["submit", "t", "--repo", remote, "--priority", "1.5"], env);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toBe("hatloop: option '--priority <n>' argument '1.5' is invalid. expected a whole number\n");

      const withPriority = (priority: string, task: string) => submit(env, remote, scenario, task, ["--priority", priority]);
      const low = await withPriority("-1", "low");
      const plain = await submit(env, remote, scenario, "plain");
      const high = await withPriority("5", "high");
      const alsoPlain = await submit(env, remote, scenario, "also plain");

      const listed = JSON.parse((await runHatloop(["ls", "--json"], env)).stdout) as Array<{ id: string; fleet: { priority: number } }>;
      expect(Object.fromEntries(listed.map((s) => [s.id, s.fleet.priority]))).toEqual({ [low]: -1, [plain]: 0, [high]: 5, [alsoPlain]: 0 });
      expect((await runHatloop(["show", high], env)).stdout).toMatch(/^priority +5$/m);
      const table = (await runHatloop(["ls", "--plain"], env)).stdout.split("\n");
      expect(table[0]).toMatch(/STATUS .*PRI +WORKER .*TASK/);
      expect(table.find((l) => l.startsWith(high.slice(0, 8)))).toMatch(/ queued .* 5 +- +high/);

      const worker = startWorker("w1", env);
      workers.push(worker);
      for (const id of [high, plain, alsoPlain, low])
        await worker.waitFor((e) => e.event === "session ended" && e.session === id && e.status === "completed");
      const started = worker.events.filter((e) => e.event === "session started").map((e) => e.session);
      expect(started).toEqual([high, plain, alsoPlain, low]);
    });
  });
});
