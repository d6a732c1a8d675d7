import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore, type DbStore } from "@hatloop/db";
import { HATLOOP, runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";
import { writeScenario } from "./support/scenario.js";

// hatloop rm and prune: a session's worktree, its branch unless it holds unmerged work, and its rows.

interface Listed {
  id: string;
  status: string;
  branch: string;
  worktreePath: string;
}

function setup() {
  const { root, repo } = makeRepo();
  const home = mkdtempSync(join(tmpdir(), "hatloop-rm-"));
  const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") };
  const withNote = writeScenario(root, 1, 0);
  const noChange = join(root, "no-change.jsonl");
  writeFileSync(
    noChange,
    `${JSON.stringify({ text: "Nothing to change.", tools: [{ name: "task_complete", input: { summary: "nothing" } }] })}\n`,
  );
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: repo, encoding: "utf8" }).trim();
  /** Runs a session to its end; returns it as `ls --json` shows it. */
  const session = async (scenario: string, extra: string[] = []): Promise<Listed> => {
    const r = await runHatloop(
      ["run", "write the notes", "--repo", repo, "--hat", "editor", "--model", `scripted:${scenario}`, ...extra],
      env,
    );
    expect([0, 3], r.stderr).toContain(r.code);
    return (await list())[0]!;
  };
  const list = async (): Promise<Listed[]> => JSON.parse((await runHatloop(["ls", "--json"], env)).stdout) as Listed[];
  const hatloop = (args: string[]) => runHatloop(args, env);
  const withStore = async <T>(fn: (store: DbStore) => Promise<T>): Promise<T> => {
    const store = await openStore({ url: join(home, "pglite") });
    try {
      return await fn(store);
    } finally {
      await store.close();
    }
  };
  return { repo, git, session, list, hatloop, withStore, withNote, noChange };
}

const short = (s: Listed) => s.id.slice(0, 8);

describe("hatloop rm", () => {
  it("removes worktree and rows; keeps the branch while it holds unmerged commits, unless --force", async () => {
    const t = setup();
    const unmerged = await t.session(t.withNote);
    const empty = await t.session(t.noChange);
    const r = await t.hatloop(["rm", short(unmerged), short(empty)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`removed ${short(unmerged)}: worktree ${unmerged.worktreePath}\n`);
    expect(r.stdout).toContain(
      `  kept branch ${unmerged.branch}: 1 commit not merged into any other branch (merge it, or use --force to delete it)\n`,
    );
    expect(r.stdout).toContain(`removed ${short(empty)}: worktree ${empty.worktreePath}, branch ${empty.branch}\n`);
    expect(existsSync(unmerged.worktreePath) || existsSync(empty.worktreePath)).toBe(false);
    expect(t.git("branch", "--list", "hatloop/*")).toBe(unmerged.branch);
    expect(await t.list()).toEqual([]);
    await t.withStore(async (store) => {
      for (const s of [unmerged, empty]) {
        expect(await store.messages.count(s.id)).toBe(0);
        expect(await store.checkpoints.latest(s.id)).toBeNull();
        expect(await store.events.after(s.id, 0)).toEqual([]);
      }
    });

    const forced = await t.session(t.withNote);
    expect((await t.hatloop(["rm", "--force", short(forced)])).stdout).toContain(`branch ${forced.branch}\n`);
    const merged = await t.session(t.withNote);
    t.git("merge", "--quiet", merged.branch);
    expect((await t.hatloop(["rm", short(merged)])).stdout).toContain(`branch ${merged.branch}\n`);
    expect(t.git("branch", "--list", "hatloop/*")).toBe(unmerged.branch);
  });

  it("refuses a running session and a worktree with uncommitted changes unless --force", async () => {
    const t = setup();
    const edited = await t.session(t.noChange);
    const running = await t.session(t.noChange);
    writeFileSync(join(edited.worktreePath, "src", "value.js"), "export const value = 2; // by hand\n");
    // Running here: this process holds the session's lease.
    await t.withStore(async (store) => {
      await store.sessions.update(running.id, { status: "running", pid: process.pid, host: hostname() });
      await store.sessions.acquireLease(running.id, `${hostname()}:${process.pid}`, 600_000);
    });
    const refused = await t.hatloop(["rm", short(edited), short(running)]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(
      `not removed ${short(edited)}: its worktree ${edited.worktreePath} has uncommitted changes (commit them, or use --force)\n`,
    );
    expect(refused.stdout).toContain(`not removed ${short(running)}: it is running (pid ${process.pid}); stop it first, or use --force\n`);
    expect(await t.list()).toHaveLength(2);
    const unknown = await t.hatloop(["rm", short(edited), "deadbeef"]);
    expect(unknown).toMatchObject({ code: 1, stderr: `hatloop: no session matches "deadbeef" (see ${HATLOOP} ls)\n` });
    expect((await t.hatloop(["rm"])).code).toBe(2);
    const forced = await t.hatloop(["rm", "--force", short(edited), short(running)]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await t.list()).toEqual([]);
  });

  it("leaves an in-place session's checkout and branch as they are", async () => {
    const t = setup();
    const head = t.git("rev-parse", "HEAD");
    const inPlace = await t.session(t.withNote, ["--in-place"]);
    const r = await t.hatloop(["rm", short(inPlace)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`removed ${short(inPlace)}: in place, so your checkout and branch main are left as they are\n`);
    expect(readFileSync(join(t.repo, "notes", "1.txt"), "utf8")).toBe("step 1\n");
    expect(t.git("rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
    expect(t.git("rev-parse", "HEAD")).toBe(head);
    expect(await t.list()).toEqual([]);
  });
});

describe("hatloop prune", () => {
  it("removes what matches status and age; --dry-run changes nothing; filters are required and checked", async () => {
    const t = setup();
    const old = await t.session(t.noChange);
    const recent = await t.session(t.noChange);
    const paused = await t.session(writeScenario(mkdtempSync(join(tmpdir(), "hatloop-rm-scenario-")), 3, 0), ["--max-iterations", "1"]);
    expect(paused.status).toBe("paused");
    await t.withStore((store) =>
      store.database.db.execute(`update sessions set updated_at = now() - interval '10 days' where id = '${old.id}'`),
    );

    for (const args of [["prune"], ["prune", "--status", "done"], ["prune", "--older-than", "soon"]]) {
      const r = await t.hatloop(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/^hatloop: [^\n]+\n$/);
    }
    const dry = await t.hatloop(["prune", "--status", "completed", "--older-than", "7d", "--dry-run", "--json"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual([
      {
        id: old.id,
        status: "completed",
        removed: false,
        dryRun: true,
        refused: null,
        worktree: old.worktreePath,
        branch: old.branch,
        kept: [],
      },
    ]);
    expect(existsSync(old.worktreePath)).toBe(true);
    expect(await t.list()).toHaveLength(3);

    const pruned = await t.hatloop(["prune", "--status", "completed,failed", "--json"]);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect((JSON.parse(pruned.stdout) as Array<{ id: string; removed: boolean }>).map((p) => [p.id, p.removed]).sort()).toEqual(
      [
        [old.id, true],
        [recent.id, true],
      ].sort(),
    );
    expect((await t.list()).map((s) => s.id)).toEqual([paused.id]);
    expect((await t.hatloop(["prune", "--status", "completed"])).stdout).toBe("nothing to prune\n");
  });
});
