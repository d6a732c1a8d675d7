import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FAKE_PR_URL, fakeGh, withoutGh } from "./support/fake-gh.js";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";
import { writeScenario } from "./support/scenario.js";

// --pr / --draft through the built binary: a scripted session completes, its branch is pushed to a
// bare repository standing in for GitHub (the remote says https://github.com/acme/app.git; git's
// url.*.insteadOf sends it to the bare one), and the pull request goes through a fake gh on the PATH
// that records how it was called. Without gh, or signed out, the run completes all the same.

function setup() {
  const { root, repo } = makeRepo();
  const bare = join(root, "remote.git");
  const git = (dir: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" }).trim();
  git(root, "init", "--quiet", "--bare", "--initial-branch=main", bare);
  git(repo, "remote", "add", "origin", "https://github.com/acme/app.git");
  git(repo, "config", `url.${bare}.insteadOf`, "https://github.com/acme/app.git");
  git(repo, "push", "--quiet", "origin", "main");
  const home = mkdtempSync(join(tmpdir(), "hatloop-pr-"));
  const scenario = writeScenario(root, 1, 0);
  const run = ["run", "write the release note", "--repo", repo, "--hat", "editor", "--model", `scripted:${scenario}`];
  const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") };
  return { repo, bare, git, run, env };
}

type Event = { type: string; data: Record<string, unknown> };
const eventsOf = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Event);

describe("a pull request on completion", () => {
  it("--draft pushes the task branch and opens a draft pull request through gh, described by the handoff", async () => {
    const { bare, git, run, env } = setup();
    const gh = fakeGh("ok");
    const r = await runHatloop([...run, "--draft", "--json"], { ...env, PATH: gh.path });
    expect(r.code, r.stderr).toBe(0);
    const events = eventsOf(r.stdout);
    const branch = events.find((e) => e.type === "session.start")!.data.branch as string;
    expect(events.find((e) => e.type === "session.end")?.data.status).toBe("completed");
    expect(events.at(-1)).toMatchObject({
      type: "pr.result",
      data: { opened: true, url: FAKE_PR_URL, branch, base: "main", remote: "origin", pushed: true, draft: true, reason: null },
    });
    // The remote has the branch at the session's last commit, which holds the agent's work.
    const worktree = events.find((e) => e.type === "session.start")!.data.worktree as string;
    expect(git(bare, "rev-parse", `refs/heads/${branch}`)).toBe(git(worktree, "rev-parse", "HEAD"));
    expect(git(bare, "show", `${branch}:notes/1.txt`)).toBe("step 1");

    const [auth, create] = gh.calls();
    expect(auth?.args).toEqual(["auth", "status"]);
    expect(create?.args).toEqual([
      "pr",
      "create",
      "--head",
      branch,
      "--title",
      "write the release note",
      "--body-file",
      "-",
      "--base",
      "main",
      "--draft",
    ]);
    expect(create?.cwd).toBe(worktree);
    const body = create!.stdin;
    expect(body).toMatch(/^## Task\n\nwrite the release note\n\n## What changed\n/);
    expect(body).toMatch(/^1 files changed, \+1 -0\n\n- `notes\/1\.txt` \(new(, \+1 -0)?\)$/m);
    expect(body).toMatch(
      /## Quality gates\n\n\| Gate \| Command \| Result \|\n\| --- \| --- \| --- \|\n\| test \| `npm test` \| passed \|/,
    );
    expect(body).toContain("<details><summary>Full handoff</summary>");
    expect(gh.calls()).toHaveLength(2);
  });

  it("a session run with --pr keeps it on resume; without gh the branch is still pushed, the run completes (exit 0) and says why", async () => {
    const { bare, git, run, env } = setup();
    const first = await runHatloop([...run, "--pr", "--max-iterations", "1", "--json"], { ...env, PATH: withoutGh() });
    expect(first.code, first.stderr).toBe(3); // paused at its budget: no pull request yet
    expect(eventsOf(first.stdout).filter((e) => e.type === "pr.result")).toEqual([]);
    const r = await runHatloop(["resume", "--last", "--max-iterations", "5", "--json"], { ...env, PATH: withoutGh() });
    expect(r.code, r.stderr).toBe(0);
    const events = eventsOf(r.stdout);
    const branch = events.find((e) => e.type === "session.start")!.data.branch as string;
    expect(events.at(-1)).toMatchObject({
      type: "pr.result",
      data: {
        opened: false,
        url: null,
        compareUrl: `https://github.com/acme/app/compare/main...${branch}?expand=1`,
        pushed: true,
        draft: false,
        reason: "the GitHub CLI (gh) is not installed (https://cli.github.com)",
      },
    });
    expect(git(bare, "branch", "--list", branch)).toContain(branch);
  });

  it("with gh signed out, the plain output names the reason and the page to open the pull request by hand", async () => {
    const { run, env } = setup();
    const gh = fakeGh("signed-out");
    const r = await runHatloop([...run, "--pr", "--plain"], { ...env, PATH: gh.path });
    expect(r.code, r.stderr).toBe(0);
    const branch = /on (hatloop\/[0-9a-f]{8})/.exec(r.stdout)![1]!;
    expect(r.stdout).toContain(
      `hatloop: no pull request: gh is not signed in (You are not logged into any GitHub hosts. To log in, run: gh auth login); run gh auth login; ${branch} is pushed to origin\n` +
        `   open it at: https://github.com/acme/app/compare/main...${branch}?expand=1\n`,
    );
    expect(gh.calls().map((c) => c.args.slice(0, 2))).toEqual([["auth", "status"]]);
  });

  it("in place on the base branch there is nothing to propose: nothing is pushed, gh is not asked, the run completes", async () => {
    const { bare, git, run, env } = setup();
    const gh = fakeGh("ok");
    const r = await runHatloop([...run, "--in-place", "--pr", "--json"], { ...env, PATH: gh.path });
    expect(r.code, r.stderr).toBe(0);
    expect(eventsOf(r.stdout).at(-1)).toMatchObject({
      type: "pr.result",
      data: {
        opened: false,
        branch: "main",
        base: "main",
        pushed: false,
        reason: "the session worked on main, the base branch itself (in place): nothing to propose",
      },
    });
    expect(git(bare, "log", "--format=%s", "main")).toBe("initial");
    expect(gh.calls()).toEqual([]);
  });
});
