import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runHatloop } from "./support/hatloop.js";
import { newSession } from "./support/session.js";
import { withStore } from "./support/store.js";
import { until } from "./support/until.js";

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync("true").pid!;
}

// `ls` while nobody holds the embedded database reads what the last holder left as it closed
// (hatloop-at-rest.json) instead of starting Postgres. It must print what the database would: each
// form of `ls` runs at rest, then again with the file removed (so through the database), and the two
// outputs must be the same. Whether Postgres started is told by the file: a holder removes it as it
// opens the directory and writes a new one as it closes, stamped with Postgres's control file,
// which every start and shutdown rewrites.

let home: string;
const atRestFile = () => join(home, "pglite", "hatloop-at-rest.json");

async function ls(args: string[]) {
  const ran = await runHatloop(["ls", ...args], { HATLOOP_HOME: home });
  expect(ran.stderr).toBe("");
  expect(ran.code).toBe(0);
  return ran.stdout;
}

/** `ls args` at rest and through the database; and whether the first one started Postgres. */
async function bothWays(args: string[]) {
  const before = readFileSync(atRestFile(), "utf8");
  const atRest = await ls(args);
  const opened = readFileSync(atRestFile(), "utf8") !== before;
  rmSync(atRestFile());
  const throughDatabase = await ls(args);
  readFileSync(atRestFile()); // left again by that command as it closed
  return { atRest, throughDatabase, opened };
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "hatloop-ls-at-rest-"));
  const day = 24 * 3_600_000;
  await withStore(home, async (store) => {
    const sessions = [
      { id: "4f1c0a2e-0000-4000-8000-000000000001", status: "completed", cost: 0.1, repo: "/repo/a", age: 0.01 },
      { id: "0a9b8c7d-0000-4000-8000-000000000002", status: "failed", cost: 0.2, repo: "/repo/b", age: 1.5 },
      { id: "c3d2e1f0-0000-4000-8000-000000000003", status: "paused", cost: 0.3, repo: "/repo/a", age: 3 },
      { id: "7e6d5c4b-0000-4000-8000-000000000004", status: "stopped", cost: 1 / 3, repo: "/repo/b", age: 9 },
      // Stored running, its runner long gone: shown as interrupted.
      { id: "b1a2c3d4-0000-4000-8000-000000000005", status: "running", cost: 0.7, repo: "/repo/a", age: 40 },
      // Its start was killed (its process on this machine is gone): interrupted too.
      { id: "d4c3b2a1-0000-4000-8000-000000000007", status: "pending", cost: 0, repo: "/repo/b", age: 0.2, pid: deadPid() },
      { id: "9f8e7d6c-0000-4000-8000-000000000008", status: "waiting", cost: 0.05, repo: "/repo/a", age: 0.3 },
    ] as const;
    for (const s of sessions) {
      await store.sessions.create(newSession({ id: s.id, repoPath: s.repo, title: `task ${s.status}` }));
      const started = "pid" in s ? { pid: s.pid, host: hostname() } : {};
      await store.sessions.update(s.id, { status: s.status, costUsd: s.cost, iteration: 3, ...started });
      const at = new Date(Date.now() - s.age * day).toISOString();
      await store.database.db.execute(`update sessions set created_at = '${at}', updated_at = '${at}' where id = '${s.id}'`);
    }
  });
});

describe("ls with nobody holding the embedded database", () => {
  it.each([
    [[]],
    [["--json"]],
    [["--json", "--totals"]],
    [["--totals"]],
    [["--status", "paused", "--status", "interrupted"]],
    [["--status", "queued"]],
    [["--repo", "/repo/b", "--json"]],
    [["--limit", "2"]],
    [["--worker", "w1"]],
  ])("prints what the database says: ls %j", async (args) => {
    const { atRest, throughDatabase, opened } = await bothWays(args);
    expect(opened).toBe(false);
    expect(atRest).toBe(throughDatabase);
  });

  it("prints the statuses a person sees, and the totals", async () => {
    const out = await ls([]);
    expect(out).toMatch(/^b1a2c3d4 +interrupted /m);
    expect(out).toMatch(/^d4c3b2a1 +interrupted /m);
    expect(out).toMatch(/^9f8e7d6c +waiting /m);
    expect(out).toMatch(/in all \$1\.68 \(7 sessions\)/);
    expect(out).toMatch(/sessions +1 completed, 1 failed, 1 paused, 1 pending, 1 running, 1 stopped, 1 waiting/);
  });

  it("is left by a warm holder as it goes", async () => {
    const linger = { HATLOOP_HOME: home, HATLOOP_DATABASE__LINGER: "300ms" };
    rmSync(atRestFile());
    // Opens the database (nothing at rest), and leaves a warm holder that goes 300 ms later.
    expect((await runHatloop(["ls", "--json"], linger)).code).toBe(0);
    const lock = join(home, "pglite.lock");
    await until("the warm holder to take the database", () => existsSync(lock));
    await until("the warm holder to leave the sessions at rest", () => !existsSync(lock) && existsSync(atRestFile()));
    const { atRest, throughDatabase, opened } = await bothWays(["--json"]);
    expect(opened).toBe(false);
    expect(atRest).toBe(throughDatabase);
  });

  it("asks the database when a session looks live: only its events say whether it is paused", async () => {
    const id = "e5f6a7b8-0000-4000-8000-000000000006";
    await withStore(home, async (store) => {
      await store.sessions.create(newSession({ id, title: "live one" }));
      await store.sessions.update(id, { status: "running" });
      // Held by this test process (alive), for an hour.
      expect(await store.sessions.acquireLease(id, `${hostname()}:${process.pid}`, 3_600_000)).not.toBeNull();
    });
    const { atRest, throughDatabase, opened } = await bothWays(["--json"]);
    expect(opened).toBe(true);
    expect(atRest).toBe(throughDatabase);
    expect(JSON.parse(atRest)[0]).toMatchObject({ id, status: "running", live: true });
  });
});
