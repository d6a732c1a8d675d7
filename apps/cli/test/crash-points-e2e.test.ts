import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { toolResults } from "@hatloop/context";
import { refSeqs, type ContextRef } from "@hatloop/core";
import { openStore } from "@hatloop/db";
import { createTestDatabase } from "@hatloop/db/testing";
import { HUNG_MS, runHatloop, startHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";
import { withStore } from "./support/store.js";

// kill -9 at the worst moments, through the real binary and the embedded database: each step's
// writes must be atomic with the state they imply, so resume continues exactly where the run was.
// The kills come from failpoints (HATLOOP_FAILPOINT), the same SIGKILL a user or the OOM killer sends.

const usage = { input_tokens: 100, output_tokens: 10 };
const turn = (text: string, tools?: unknown[]) => JSON.stringify({ text, ...(tools ? { tools } : {}), usage });

function setup(lines: string[], hat: string) {
  const { repo, root } = makeRepo();
  const home = mkdtempSync(join(tmpdir(), "hatloop-crash-"));
  const scenario = join(root, "scenario.jsonl");
  writeFileSync(scenario, `${lines.join("\n")}\n`);
  const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json"), HATLOOP_GATES__DETECT: "false" };
  const run = (extra: string[]) => [
    "run",
    "do the task",
    "--repo",
    repo,
    "--hat",
    hat,
    "--model",
    `scripted:${scenario}`,
    "--json",
    ...extra,
  ];
  return { env, run, home };
}

const bin = new URL("../dist/bin.js", import.meta.url).pathname;

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for a condition, not a time: false only if it never held within HUNG_MS. */
async function until(check: () => boolean | Promise<boolean>): Promise<boolean> {
  for (const end = Date.now() + HUNG_MS; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (await check()) return true;
  return check();
}

/** Whether a process of the group runs `command` (its /proc comm). */
function groupRuns(pgid: number, command: string): boolean {
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const [, comm, rest] = /^\d+ \((.*)\) (.*)$/s.exec(stat) ?? [];
      if (comm === command && Number(rest?.split(" ")[2]) === pgid) return true;
    } catch {
      // gone meanwhile
    }
  }
  return false;
}

const events = (stdout: string) =>
  stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });

const hatChange = [
  turn("The plan is ready.\nEVENT:plan.complete write a.txt"),
  turn("Writing it.", [{ name: "write_file", input: { path: "a.txt", content: "a\n" } }]),
  turn("Written.", [{ name: "write_file", input: { path: "b.txt", content: "b\n" } }]),
  turn("Still writing.", [{ name: "write_file", input: { path: "c.txt", content: "c\n" } }]),
];

describe("crash points", () => {
  it("killed between the hat-change message and the session row: resume is in the new hat; ls and show say interrupted", async () => {
    const { env, run, home } = setup(hatChange, "planner");
    const killed = await runHatloop(run(["--max-iterations", "2"]), { ...env, HATLOOP_FAILPOINT: "after-hat-change-message" });
    expect(killed.code).toBeNull(); // SIGKILL
    const [session] = await withStore(home, (s) => s.sessions.list());
    expect(session).toMatchObject({ status: "running", hat: "planner" }); // the row was not updated
    expect(JSON.parse((await runHatloop(["ls", "--json"], env)).stdout)[0].status).toBe("interrupted");
    expect(JSON.parse((await runHatloop(["show", session!.id, "--json"], env)).stdout).status).toBe("interrupted");

    const resumed = await runHatloop(["resume", "--last", "--json"], env);
    expect(resumed.code, resumed.stderr).toBe(3);
    const out = events(resumed.stdout);
    expect(out.find((e) => e.type === "session.start")!.data).toMatchObject({ hat: "creator", resumed: true });
    expect(out.find((e) => e.type === "tool.result")!.data).toMatchObject({ name: "write_file", isError: false });
  });

  it("killed after task_complete passed but before completion was recorded: resume completes without another turn", async () => {
    const { env, run, home } = setup([turn("Done.", [{ name: "task_complete", input: { summary: "done" } }])], "editor");
    const killed = await runHatloop(run([]), { ...env, HATLOOP_FAILPOINT: "after-completion-message" });
    expect(killed.code).toBeNull();
    const resumed = await runHatloop(["resume", "--last", "--json"], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(events(resumed.stdout).filter((e) => e.type === "model.request")).toEqual([]);
    await withStore(home, async (store) => {
      const [session] = await store.sessions.list();
      expect(session).toMatchObject({ status: "completed" });
      expect((await store.checkpoints.latest(session!.id))!.reason).toBe("completion");
    });
  });

  it("killed between storing a checkpoint and recording its commit on the session: resume takes the worktree as hatloop's own", async () => {
    const write = [{ name: "write_file", input: { path: "notes/a.txt", content: "a\n" } }];
    const { env, run, home } = setup(
      [turn("Writing.", write), turn("Done.", [{ name: "task_complete", input: { summary: "done" } }])],
      "editor",
    );
    const killed = await runHatloop(run([]), { ...env, HATLOOP_FAILPOINT: "after-checkpoint-row", HATLOOP_CHECKPOINT__INTERVAL: "1" });
    expect(killed.code).toBeNull();
    await withStore(home, async (store) => {
      const [session] = await store.sessions.list();
      expect(session!.headCommit).not.toBe((await store.checkpoints.latest(session!.id))!.gitCommit);
    });
    const resumed = await runHatloop(["resume", "--last", "--json"], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    await withStore(home, async (store) => {
      const [session] = await store.sessions.list();
      expect(session).toMatchObject({ status: "completed" });
    });
  });

  it("killed with its process group while the checkpoint commit holds git's locks: resume clears them, later commits work", async () => {
    const done = turn("Done.", [{ name: "task_complete", input: { summary: "done" } }]);
    const { env, run, home } = setup([hatChange[1]!, hatChange[2]!, done], "editor");
    const killed = await runHatloop(
      run(["--max-iterations", "1"]),
      { ...env, HATLOOP_FAILPOINT: "in-checkpoint-commit" },
      { ownGroup: true },
    );
    expect(killed.code, killed.stderr).toBeNull(); // SIGKILL
    const [session] = await withStore(home, (s) => s.sessions.list());
    const git = (...args: string[]) => execFileSync("git", args, { cwd: session!.worktreePath }).toString().trim();
    const gitDir = resolve(session!.worktreePath, git("rev-parse", "--git-dir"));
    const branchLock = join(
      resolve(session!.worktreePath, git("rev-parse", "--git-common-dir")),
      "refs",
      "heads",
      `${session!.branch}.lock`,
    );
    // As the kill found them: HEAD's and the branch's (and the index's, on a git that still holds it then).
    const left = [join(gitDir, "index.lock"), join(gitDir, "HEAD.lock"), branchLock].filter((l) => existsSync(l));
    expect(left).toEqual(expect.arrayContaining([join(gitDir, "HEAD.lock"), branchLock]));
    expect(() => git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "--allow-empty", "-m", "blocked")).toThrow(/\.lock/); // what every later commit met

    const resumed = await runHatloop(["resume", "--last", "--max-iterations", "5", "--plain"], env);
    expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
    expect(resumed.stdout + resumed.stderr).toContain(`removed ${left.length} git lock file(s) a killed process left`);
    const after = await withStore(home, (s) => s.sessions.get(session!.id));
    expect(after).toMatchObject({ status: "completed" });
    expect(git("rev-parse", "HEAD")).toBe(after!.headCommit); // the checkpoint commits went through
    expect(git("ls-tree", "--name-only", "HEAD").split("\n")).toEqual(expect.arrayContaining(["a.txt", "b.txt"]));
  });

  it("killed after a command finished but before its result was stored: resume tells the model it finished, not that it was cut off", async () => {
    const command = [{ name: "run_command", input: { command: "echo ran > ran.txt; echo the output" } }];
    const done = turn("Done.", [{ name: "task_complete", input: { summary: "done" } }]);
    const { env, run, home } = setup([turn("Running it.", command), done], "editor");
    const killed = await runHatloop(run([]), { ...env, HATLOOP_FAILPOINT: "after-tool-result" });
    expect(killed.code, killed.stderr).toBeNull(); // SIGKILL
    const [session] = await withStore(home, (s) => s.sessions.list());
    expect(existsSync(join(session!.worktreePath, "ran.txt"))).toBe(true);

    const resumed = await runHatloop(["resume", "--last", "--json"], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    const answered = await withStore(home, async (store) =>
      (await store.messages.range(session!.id, 1, 1_000)).flatMap((m) => toolResults(m.message)),
    );
    expect(answered).toHaveLength(2); // run_command's, then task_complete's
    expect(answered[0]).toMatchObject({ is_error: true });
    expect(answered[0]!.content).toMatch(
      /^Finished \(ok\) just before the hatloop process stopped, but its output was not kept; it began: the output/,
    );
  });

  it("killed after storing an answer with signals but before closing its turn: resume applies them (hat, scratchpad, checklist)", async () => {
    const planned = turn(
      "Planned.\nCHECKLIST_ADD:1:a.txt exists\nSCRATCHPAD: plan: write a.txt, then review\nEVENT:plan.complete write a.txt",
      [{ name: "list_files", input: {} }],
    );
    const { env, run, home } = setup([planned, hatChange[1]!], "planner");
    const killed = await runHatloop(run([]), { ...env, HATLOOP_FAILPOINT: "after-tool-result" });
    expect(killed.code, killed.stderr).toBeNull(); // SIGKILL, with the answer stored and its turn open
    const [session] = await withStore(home, (s) => s.sessions.list());
    expect(session).toMatchObject({ hat: "planner" });
    expect(session!.scratchpad).not.toContain("plan: write a.txt");

    const resumed = await runHatloop(["resume", "--last", "--max-iterations", "2", "--json"], env);
    expect(resumed.code, resumed.stderr).toBe(3); // the iteration budget, not consecutive tool failures
    const out = events(resumed.stdout);
    expect(out.find((e) => e.type === "hat.change")!.data).toMatchObject({ from: "planner", to: "creator", topic: "plan.complete" });
    expect(out.find((e) => e.type === "tool.result")!.data).toMatchObject({ name: "write_file", isError: false });
    await withStore(home, async (store) => {
      const after = (await store.sessions.get(session!.id))!;
      expect(after).toMatchObject({ hat: "creator" });
      expect(after.scratchpad).toContain("plan: write a.txt, then review");
      expect(await store.checklist.list(session!.id)).toMatchObject([{ id: "1", description: "a.txt exists" }]);
      const messages = await store.messages.range(session!.id, 1, 1_000);
      const closing = messages.find((m) => m.message.role === "user" && toolResults(m.message).length > 0)!;
      expect(JSON.stringify(closing.message)).toContain("creator"); // the hat-change message closes the interrupted turn
      expect(closing.hat).toBe("creator");
    });
  });

  it("killed with a question's answer open: resume asks it and ends waiting, with nothing stored after the run ended", async () => {
    const asking = turn("ASK_USER: which database should it use?", [{ name: "list_files", input: {} }]);
    const { env, run, home } = setup([asking], "planner");
    const killed = await runHatloop(run([]), { ...env, HATLOOP_FAILPOINT: "after-tool-result" });
    expect(killed.code, killed.stderr).toBeNull();
    const resumed = await runHatloop(["resume", "--last", "--json"], env);
    expect(resumed.code, resumed.stderr).toBe(4); // waiting for the answer
    await withStore(home, async (store) => {
      const [session] = await store.sessions.list();
      expect(session!.question?.text).toBe("which database should it use?");
      // The run's last checkpoint holds every stored message: none was written after it ended.
      const last = await store.checkpoints.latest(session!.id);
      expect(await store.messages.lastSeq(session!.id)).toBeLessThanOrEqual(Math.max(...refSeqs(last!.context as ContextRef)));
    });
  });

  it("killed during the gate baseline: the gate command dies with it, and the session shows as interrupted and is removable", async () => {
    const { env, run, home } = setup([turn("never asked")], "creator");
    const pidFile = join(home, "gate.pid");
    const child = spawn(process.execPath, [bin, ...run([])], {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        ...env,
        HATLOOP_GATES__DETECT: "true",
        HATLOOP_GATES__TEST: `echo $$ > ${pidFile}; sleep 86400`,
        // The gate's pid as this test sees it, and its pid file outside the worktree: not in a PID namespace
        // of its own nor in the sandbox (isolation.test.ts and sandbox.test.ts cover those).
        HATLOOP_TOOLS__ISOLATE: "off",
        HATLOOP_TOOLS__SANDBOX__MODE: "off",
      },
    });
    await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "");
    const gate = Number(readFileSync(pidFile, "utf8").trim());
    await until(() => groupRuns(gate, "sleep")); // the gate command is under way
    // Past the first moments of the command (the reaper's documented window, tools/shell/reaper.ts):
    // its watchdog has the group by then. The kill itself is what is tested, not that window.
    await new Promise((r) => setTimeout(r, 1_000));
    child.kill("SIGKILL");
    try {
      expect(await until(() => !groupAlive(gate))).toBe(true); // it never ends by itself
    } finally {
      if (groupAlive(gate)) process.kill(-gate, "SIGKILL");
    }
    const [session] = JSON.parse((await runHatloop(["ls", "--json"], env)).stdout) as Array<{
      id: string;
      status: string;
      worktreePath: string;
    }>;
    expect(session).toMatchObject({ status: "interrupted" });
    expect(existsSync(session!.worktreePath)).toBe(true);
    const removed = await runHatloop(["rm", session!.id], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(session!.worktreePath)).toBe(false);
  });

  it("never lets two runners work one session: a second resume is refused while the first holds the lease", async () => {
    const slow = Array.from({ length: 6 }, (_, i) =>
      JSON.stringify({
        text: `Step ${i}, slowly.`.repeat(4),
        usage,
        delay_ms: 60,
        tools: [{ name: "write_file", input: { path: `s${i}.txt`, content: "x\n" } }],
      }),
    );
    const { env, run } = setup(slow, "creator");
    expect((await runHatloop(run(["--max-iterations", "1"]), env)).code).toBe(3);
    const [a, b] = await Promise.all([
      runHatloop(["resume", "--last", "--max-iterations", "4", "--json"], env),
      runHatloop(["resume", "--last", "--max-iterations", "4", "--json"], env),
    ]);
    const codes = [a.code, b.code].sort();
    expect(codes).toEqual([2, 3]);
    expect((a.code === 2 ? a : b).stderr).toMatch(/is running (elsewhere|in another process)/);
  });
});

describe("crash points on Postgres", { tags: ["postgres"] }, () => {
  it("fences out a runner whose event loop stalled past its lease: it stops and writes nothing, usage is counted once", async () => {
    // On Postgres: with the embedded database, the stalled process also serves the database, so no
    // one can take over while it stalls, and when it wakes it renews before anyone else gets in.
    const database = await createTestDatabase({ migrated: true });
    const { env: base, run } = setup(hatChange, "planner");
    const env = { ...base, DATABASE_URL: database.url };
    // The stall outlasts its 2 s lease by far, so the takeover gets in first even on a loaded machine.
    const stalled = startHatloop(run(["--max-iterations", "3"]), {
      ...env,
      HATLOOP_LEASE_TTL: "2s",
      HATLOOP_FAILPOINT: "after-hat-change-message:block=15000",
    });
    const store = await openStore({ url: database.url });
    try {
      await stalled.waitFor((e) => e.type === "hat.change");
      // The stalled runner's lease has expired: waited for, not slept on.
      await until(async () => {
        const [session] = await store.sessions.list();
        return !!session?.lease.expiresAt && session.lease.expiresAt.getTime() < Date.now();
      });
      const takeover = await runHatloop(["resume", "--last", "--json"], { ...env, HATLOOP_LEASE_TTL: "2s" });
      expect(takeover.code, takeover.stderr).toBe(3);
      const first = await stalled.done;
      expect(first.code).toBe(1);
      expect(events(first.stdout).map((e) => e.type)).toContain("session.lease-lost");
      const [session] = await store.sessions.list();
      const messages = await store.messages.range(session!.id, 1, 1_000);
      expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1));
      // Three model calls in all (one before the stall, two after the takeover), each counted once.
      expect(session!.usage).toMatchObject({ inputTokens: 300, outputTokens: 30 });
      expect(session!.iteration).toBe(3);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
