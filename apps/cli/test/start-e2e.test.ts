import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HUNG_MS, runHatloop, startHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";
import { writeScenario } from "./support/scenario.js";

// Starting a session: everything is checked before anything is created, and a start that fails
// later (or is interrupted during the gate baseline) takes back what it made.

function setup(files: Record<string, string> = {}) {
  const { root, repo } = makeRepo(files);
  const home = mkdtempSync(join(tmpdir(), "hatloop-start-"));
  const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") };
  return { root, repo, home, env, scenario: writeScenario(root, 0) };
}

/** No worktree, no task branch, no database: the repository is as it was. */
function expectNothingCreated({ root, repo, home }: { root: string; repo: string; home: string }, database: "none" | "empty") {
  const worktrees = join(root, ".hatloop-worktrees");
  expect(existsSync(worktrees) ? readdirSync(worktrees) : []).toEqual([]);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
  expect(git("branch", "--list", "hatloop/*")).toBe("");
  expect(git("worktree", "list").split("\n")).toHaveLength(1);
  if (database === "none") expect(readdirSync(home)).toEqual([]);
}

/** Whether the process is gone (or a zombie waiting to be reaped) before the deadline. */
async function endsWithin(pid: number, ms: number): Promise<boolean> {
  const running = () => {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  };
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) if (!running()) return true;
  return false;
}

async function sessionsIn(env: Record<string, string>): Promise<unknown[]> {
  const ls = await runHatloop(["ls", "--json"], env);
  expect(ls.code, ls.stderr).toBe(0);
  return JSON.parse(ls.stdout) as unknown[];
}

describe("a start that cannot succeed creates nothing", () => {
  it("refuses an unknown hat, from the flag or HATLOOP_HAT, before creating anything", async () => {
    const s = setup();
    for (const [args, env] of [
      [["--hat", "nosuch"], s.env],
      [[], { ...s.env, HATLOOP_HAT: "nosuch" }],
    ] as const) {
      const r = await runHatloop(["run", "do it", "--repo", s.repo, "--model", `scripted:${s.scenario}`, ...args], env);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^hatloop: unknown hat "nosuch" \(hats: .*planner.*\)\n$/);
      expectNothingCreated(s, "none");
    }
  });

  it("refuses a scenario with invalid JSON before the baseline runs", async () => {
    const s = setup({ "package.json": JSON.stringify({ name: "app", scripts: { test: "touch ../baseline-ran" } }) });
    writeFileSync(s.scenario, '{"text": "fine"}\n{not json\n');
    const r = await runHatloop(["run", "do it", "--repo", s.repo, "--model", `scripted:${s.scenario}`], s.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^hatloop: .*scenario\.jsonl:2: invalid JSON/);
    expect(existsSync(join(s.root, "baseline-ran"))).toBe(false);
    expectNothingCreated(s, "none");
  });

  it("refuses a task larger than half the working window, naming the sizes", async () => {
    const s = setup();
    const task = "Make the parser faster. ".repeat(200); // about 1,200 tokens
    const r = await runHatloop(["run", task, "--repo", s.repo, "--model", `scripted:${s.scenario}`], {
      ...s.env,
      HATLOOP_CONTEXT__WINDOW: "2000",
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^hatloop: the task is about 1,2\d\d tokens, more than half of the session's 2,000-token working window; .*\n$/,
    );
    expectNothingCreated(s, "none");
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`rolls back on ${signal} during the gate baseline, and the gate command does not outlive it`, async () => {
      const s = setup({
        "package.json": JSON.stringify({ name: "app", scripts: { test: "node hang.js" } }),
        "hang.js": 'require("fs").writeFileSync("../../gate.pid", String(process.pid)); setInterval(() => {}, 1 << 30);\n',
      });
      const pidFile = join(s.root, "gate.pid");
      // The gate's pid as this test sees it, and its pid file beside the repository: not in a PID namespace
      // of its own nor in the sandbox (isolation.test.ts and sandbox.test.ts cover those).
      const env = { ...s.env, HATLOOP_TOOLS__ISOLATE: "off", HATLOOP_TOOLS__SANDBOX__MODE: "off" };
      const live = startHatloop(["run", "do it", "--repo", s.repo, "--model", `scripted:${s.scenario}`], env);
      const deadline = Date.now() + HUNG_MS;
      while (!existsSync(pidFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const gatePid = Number(readFileSync(pidFile, "utf8"));
      live.kill(signal);
      const ended = await live.done;
      expect(ended.code).toBe(130);
      expect(ended.stderr).toMatch(/hatloop: interrupted while taking the quality-gate baseline; nothing was kept\n$/);
      expect(await endsWithin(gatePid, HUNG_MS)).toBe(true); // it never ends by itself
      expectNothingCreated(s, "empty");
      expect(await sessionsIn(s.env)).toEqual([]);
    });
  }
});

describe("a start killed with SIGKILL", () => {
  it.each(["after-start-row", "after-start-worktree"])(
    "at %s leaves a session that ls shows and rm removes with its worktree and branch: nothing nameless",
    async (point) => {
      const s = setup();
      const killed = await runHatloop(["run", "do it", "--repo", s.repo, "--model", `scripted:${s.scenario}`], {
        ...s.env,
        HATLOOP_FAILPOINT: point,
      });
      expect(killed.code).toBeNull(); // SIGKILL
      const listed = JSON.parse((await runHatloop(["ls", "--json"], s.env)).stdout) as Array<{ id: string; status: string }>;
      expect(listed).toMatchObject([{ status: "interrupted" }]);
      const removed = await runHatloop(["rm", listed[0]!.id, "--force"], s.env);
      expect(removed.code, removed.stderr).toBe(0);
      expectNothingCreated(s, "empty");
    },
  );
});

describe("the task from a file or stdin", () => {
  it("reads --task-file (past the shell's argument limit) and - (stdin)", async () => {
    const s = setup();
    const big = `Rename every helper in the spec below.\n${"- helper_x -> helperX\n".repeat(7_000)}`;
    expect(big.length).toBeGreaterThan(128 * 1024);
    writeFileSync(join(s.root, "task.md"), big);
    const run = ["run", "--repo", s.repo, "--hat", "editor", "--model", `scripted:${s.scenario}`];
    const fromFile = await runHatloop([...run, "--task-file", join(s.root, "task.md")], s.env);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const fromStdin = await runHatloop([...run, "-"], s.env, { stdin: "Task from stdin.\nSecond line.\n" });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    const tasks = ((await sessionsIn(s.env)) as Array<{ task: string }>).map((x) => x.task);
    expect(tasks).toEqual(["Task from stdin.\nSecond line.", big.trim()]);
  });

  it("refuses two tasks, no task and an unreadable file with exit code 2", async () => {
    const s = setup();
    const run = ["run", "--repo", s.repo, "--model", `scripted:${s.scenario}`];
    const answers = await Promise.all([
      runHatloop([...run, "words", "--task-file", s.scenario], s.env),
      runHatloop(run, s.env),
      runHatloop([...run, "--task-file", join(s.root, "missing.md")], s.env),
      runHatloop([...run, "-"], s.env, { stdin: "   \n" }),
    ]);
    expect(answers.map((r) => r.code)).toEqual([2, 2, 2, 2]);
    for (const r of answers) expect(r.stderr).toMatch(/^hatloop: [^\n]+\n$/);
    expect(answers[2].stderr).toContain("cannot read the task file");
    expect(answers[3].stderr).toContain("the task is empty");
    expectNothingCreated(s, "none");
  });
});
