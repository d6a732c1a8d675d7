import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { NewSession } from "@hatloop/core";
import { runHatloop } from "./support/hatloop.js";
import { newSession } from "./support/session.js";
import { withStore } from "./support/store.js";

// ls --status / --repo / --limit and the totals under the table, on the embedded database (no fleet,
// no queue schema): the filters run in the database, "interrupted" is decided from the runner, and
// --json stays an array unless --totals asks for the object.

/** Session n: what ls prints and filters on is set here, the rest is the store contract's fixture. */
function session(n: number, fields: Partial<NewSession>): NewSession {
  return newSession({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    task: `task ${n}`,
    title: `task ${n}`,
    repoPath: "/srv/app",
    budgets: { maxIterations: null, maxTokens: null, maxCostUsd: null, maxRuntimeMs: null },
    status: "completed",
    ...fields,
  });
}

describe("ls filters and totals (embedded database)", () => {
  it("filters by status (shown ones too), repository and limit together; totals by day, week and status", async () => {
    const home = mkdtempSync(join(tmpdir(), "hatloop-ls-"));
    const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") };
    await withStore(home, async (store) => {
      for (const [n, fields] of [
        [1, { status: "completed" }],
        [2, { status: "failed", repoPath: "/srv/other" }],
        [3, { status: "paused" }],
        // A running session with no runner: shown as interrupted.
        [4, { status: "running" }],
        [5, { status: "completed" }],
      ] as const) {
        await store.sessions.create(session(n, fields));
        // Created in this order, a second apart, so "newest first" is 5, 4, 3, 2, 1.
        await store.database.db.execute(
          `update sessions set created_at = now() - interval '${10 - n} seconds' where id = '${session(n, {}).id}'`,
        );
      }
      await store.sessions.addUsage(session(1, {}).id, { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, 2);
      await store.sessions.addUsage(session(2, {}).id, { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, 0.5);
      // Session 5 is from last year: in all, neither today nor this week.
      await store.database.db.execute(
        `update sessions set created_at = now() - interval '400 days', cost_usd = 7 where id = '${session(5, {}).id}'`,
      );
    });
    const ids = async (...args: string[]) => {
      const ran = await runHatloop(["ls", "--json", ...args], env);
      expect(ran.code, ran.stderr).toBe(0);
      return (JSON.parse(ran.stdout) as Array<{ id: string; status: string }>).map((s) => `${Number(s.id.slice(-2))}:${s.status}`);
    };
    expect(await ids()).toEqual(["4:interrupted", "3:paused", "2:failed", "1:completed", "5:completed"]);
    expect(await ids("--status", "completed")).toEqual(["1:completed", "5:completed"]);
    expect(await ids("--status", "completed", "--limit", "1")).toEqual(["1:completed"]);
    expect(await ids("--status", "interrupted,failed")).toEqual(["4:interrupted", "2:failed"]);
    expect(await ids("--status", "running")).toEqual([]);
    expect(await ids("--repo", "/srv/other")).toEqual(["2:failed"]);
    expect(await ids("--repo", "/srv/app", "--status", "paused,completed", "-n", "2")).toEqual(["3:paused", "1:completed"]);
    expect(await ids("--worker", "w1")).toEqual([]); // no fleet here

    const withTotals = await runHatloop(["ls", "--json", "--totals", "--status", "failed"], env);
    const parsed = JSON.parse(withTotals.stdout) as { sessions: unknown[]; totals: Record<string, unknown> };
    expect(parsed.sessions).toHaveLength(1);
    expect(parsed.totals).toEqual({
      today: { sessions: 4, costUsd: 2.5 },
      week: { sessions: 4, costUsd: 2.5 },
      all: { sessions: 5, costUsd: 9.5 },
      byStatus: { completed: 2, failed: 1, paused: 1, running: 1 },
    });

    const plain = await runHatloop(["ls", "--plain"], env);
    expect(plain.code, plain.stderr).toBe(0);
    const lines = plain.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID +STATUS +HAT +ITER +COST +UPDATED +TASK$/);
    expect(lines.slice(-2)).toEqual([
      "cost       today $2.50 (4 sessions), this week $2.50 (4 sessions), in all $9.50 (5 sessions)",
      "sessions   2 completed, 1 failed, 1 paused, 1 running",
    ]);
    expect((await runHatloop(["ls", "--plain", "--status", "waiting"], env)).stdout).toBe("No sessions match.\n");

    const bad = await runHatloop(["ls", "--status", "done"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^hatloop: option '--status <list>' argument 'done' is invalid\. expected statuses among pending, .*, queued, dead-lettered\n$/,
    );
  });
});
