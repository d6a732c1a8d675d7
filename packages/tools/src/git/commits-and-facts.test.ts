import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { git, isolateGit, tempDir, tempRepo, writeFiles } from "../test-support/fixtures.js";
import { commitAll, hasChangesSince, headCommit, resetTo } from "./commits.js";
import { gitFacts, worktreeDiff } from "./facts.js";

beforeAll(isolateGit);

describe("commitAll", () => {
  it("stages new, changed and deleted files and returns the new sha", async () => {
    const repo = tempRepo({ "a.txt": "a\n", "gone.txt": "g\n" });
    const before = await headCommit(repo);
    writeFiles(repo, { "a.txt": "a2\n", "new/b.txt": "b\n" });
    rmSync(path.join(repo, "gone.txt"));
    const sha = await commitAll(repo, "checkpoint 1");
    expect(sha).not.toBe(before);
    expect(sha).toBe(git(repo, "rev-parse", "HEAD"));
    expect(git(repo, "log", "-1", "--format=%s")).toBe("checkpoint 1");
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(git(repo, "show", "--name-status", "--format=", "HEAD").split("\n").sort()).toEqual(["A\tnew/b.txt", "D\tgone.txt", "M\ta.txt"]);
  });

  it("returns HEAD when nothing changed", async () => {
    const repo = tempRepo();
    const head = await headCommit(repo);
    expect(await commitAll(repo, "nothing")).toBe(head);
    expect(git(repo, "rev-list", "--count", "HEAD")).toBe("1");
  });

  describe("the commit's identity", () => {
    let saved: NodeJS.ProcessEnv = {};
    beforeEach(() => {
      saved = { ...process.env };
    });
    /** A repository whose first commit is made; from then on the environment names nobody. */
    const repoWithoutEnvIdentity = () => {
      const repo = tempRepo();
      for (const key of ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL"])
        delete process.env[key];
      return repo;
    };
    afterEach(() => {
      Object.assign(process.env, saved);
    });

    it("is the one the repository configures", async () => {
      const repo = repoWithoutEnvIdentity();
      git(repo, "config", "user.name", "Ada Lovelace");
      git(repo, "config", "user.email", "ada@example.org");
      writeFiles(repo, { "x.txt": "x" });
      await commitAll(repo, "checkpoint");
      expect(git(repo, "log", "-1", "--format=%an <%ae>")).toBe("Ada Lovelace <ada@example.org>");
    });

    it("is hatloop <hatloop@localhost> when none is configured, and hooks are ignored", async () => {
      const repo = repoWithoutEnvIdentity();
      writeFileSync(path.join(repo, ".git/hooks/pre-commit"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
      writeFiles(repo, { "x.txt": "x" });
      await commitAll(repo, "checkpoint");
      expect(git(repo, "log", "-1", "--format=%an <%ae> / %cn <%ce>")).toBe("hatloop <hatloop@localhost> / hatloop <hatloop@localhost>");
    });
  });
});

describe("hasChangesSince and resetTo", () => {
  it("detects edits, untracked files and a moved HEAD, and resets them away", async () => {
    const repo = tempRepo({ "a.txt": "a\n", ".gitignore": "cache/\n" });
    const base = await headCommit(repo);
    expect(await hasChangesSince(repo, base)).toBe(false);

    writeFiles(repo, { "untracked.txt": "u" });
    expect(await hasChangesSince(repo, base)).toBe(true);
    rmSync(path.join(repo, "untracked.txt"));

    writeFiles(repo, { "a.txt": "edited\n" });
    expect(await hasChangesSince(repo, base)).toBe(true);
    await commitAll(repo, "move head");
    expect(await hasChangesSince(repo, base)).toBe(true);

    writeFiles(repo, { "a.txt": "dirty\n", "stray/new.txt": "n", "cache/keep.bin": "k" });
    await resetTo(repo, base);
    expect(await headCommit(repo)).toBe(base);
    expect(readFileSync(path.join(repo, "a.txt"), "utf8")).toBe("a\n");
    expect(existsSync(path.join(repo, "stray"))).toBe(false);
    expect(existsSync(path.join(repo, "cache/keep.bin"))).toBe(true); // ignored files are left alone
    expect(await hasChangesSince(repo, base)).toBe(false);
    await expect(resetTo(repo, "0000000000000000000000000000000000000000")).rejects.toThrow(/unknown commit/);
  });
});

describe("gitFacts", () => {
  it("compares committed, uncommitted and untracked work with the base commit", async () => {
    const repo = tempRepo({ "keep.txt": "k\n", "mod.txt": "one\ntwo\n", "del.txt": "d\n", "later.txt": "l\n" });
    const base = await headCommit(repo);
    writeFiles(repo, { "mod.txt": "one\nTWO\nthree\n", "committed-new.txt": "c\n" });
    await commitAll(repo, "first step");
    writeFiles(repo, { "committed-new.txt": "c\nc2\n" });
    await commitAll(repo, "second step");
    // Uncommitted: a deletion, a staged edit, an untracked file in a new directory.
    rmSync(path.join(repo, "del.txt"));
    writeFiles(repo, { "later.txt": "l2\n", "untracked.txt": "u\n", "scratch/notes.md": "n\n" });
    git(repo, "add", "later.txt");
    const indexBefore = git(repo, "status", "--porcelain");

    const facts = await gitFacts(repo, base);
    expect(facts.branch).toBe("main");
    expect(facts.headCommit).toBe(git(repo, "rev-parse", "HEAD"));
    expect(facts.modifiedFiles).toEqual(["later.txt", "mod.txt"]);
    expect(facts.createdFiles).toEqual(["committed-new.txt", "scratch/notes.md", "untracked.txt"]);
    expect(facts.deletedFiles).toEqual(["del.txt"]);
    expect(facts.diffstat).toEqual({ filesChanged: 6, insertions: 7, deletions: 3 });
    expect(facts.commits?.map((c) => c.subject)).toEqual(["first step", "second step"]);
    expect(facts.commits?.[0]?.sha).toMatch(/^[0-9a-f]{40}$/);
    // The user's index is untouched.
    expect(git(repo, "status", "--porcelain")).toBe(indexBefore);
  });

  it("names awkward paths and counts a binary file without lines", async () => {
    const repo = tempRepo({ "a.txt": "a\n" });
    const base = await headCommit(repo);
    writeFiles(repo, { ":colon.txt": "c\n", "tab\tand space.txt": "t\n", "ünï.md": "u\n" });
    writeFileSync(path.join(repo, "blob.bin"), Buffer.from([0, 1, 2, 0, 255]));
    const facts = await gitFacts(repo, base);
    expect(facts.createdFiles).toEqual([":colon.txt", "blob.bin", "tab\tand space.txt", "ünï.md"]);
    expect(facts.diffstat).toEqual({ filesChanged: 4, insertions: 3, deletions: 0 });
    expect(facts.commits).toEqual([]);
  });

  it("reports nothing for an unchanged tree", async () => {
    const repo = tempRepo();
    const base = await headCommit(repo);
    expect(await gitFacts(repo, base)).toMatchObject({
      modifiedFiles: [],
      createdFiles: [],
      deletedFiles: [],
      diffstat: { filesChanged: 0, insertions: 0, deletions: 0 },
      commits: [],
    });
  });
});

describe("gitFacts of a tree just committed (cleanAt)", () => {
  /** Runs `fn` with a git on the PATH that logs each command's arguments before running the real one. */
  async function countingGit<T>(fn: () => Promise<T>): Promise<{ result: T; commands: string[] }> {
    const dir = tempDir("hatloop-git-log-");
    const log = path.join(dir, "log");
    const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
    writeFileSync(path.join(dir, "git"), `#!/bin/sh\necho "$*" >> "${log}"\nexec "${real}" "$@"\n`, { mode: 0o755 });
    vi.stubEnv("PATH", `${dir}${path.delimiter}${process.env.PATH ?? ""}`);
    try {
      const result = await fn();
      return { result, commands: existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [] };
    } finally {
      vi.unstubAllEnvs();
    }
  }

  it("are the working tree's facts, read from the two commits once per pair", async () => {
    const repo = tempRepo({ "keep.txt": "k\n", "mod.txt": "one\n", "del.txt": "d\n" });
    const base = await headCommit(repo);
    expect(await gitFacts(repo, base, base)).toEqual(await gitFacts(repo, base));

    writeFiles(repo, { "mod.txt": "one\ntwo\n", "new/file.txt": "n\n" });
    rmSync(path.join(repo, "del.txt"));
    const first = await commitAll(repo, "first step");
    writeFiles(repo, { "new/file.txt": "n\nn2\n" });
    const second = await commitAll(repo, "second step");
    const { result: clean, commands } = await countingGit(() => gitFacts(repo, base, second));
    expect(clean).toEqual(await gitFacts(repo, base));
    expect(clean).toMatchObject({ branch: "main", headCommit: second, createdFiles: ["new/file.txt"], deletedFiles: ["del.txt"] });
    expect(clean.commits?.map((c) => c.sha)).toEqual([first, second]);
    expect(commands.map((c) => c.split(" ").find((w) => !w.startsWith("-") && !w.includes("=")))).toEqual(["rev-parse", "diff", "log"]);

    // The next checkpoint, nothing changed: the branch is asked again, the rest is known.
    expect((await countingGit(() => gitFacts(repo, base, second))).commands).toHaveLength(1);
  });
});

describe("worktreeDiff", () => {
  it("is the patch of committed, uncommitted and untracked changes against the base, leaving the index alone", async () => {
    const repo = tempRepo({ "a.txt": "a\n", "gone.txt": "g\n" });
    const base = await headCommit(repo);
    writeFiles(repo, { "a.txt": "a2\n" });
    await commitAll(repo, "checkpoint");
    writeFiles(repo, { "b.txt": "staged\n", "new/c.txt": "untracked\n" });
    git(repo, "add", "b.txt");
    rmSync(path.join(repo, "gone.txt"));
    const statusBefore = git(repo, "status", "--porcelain");
    const patch = await worktreeDiff(repo, base, 100_000);
    expect(patch).toContain("+a2");
    expect(patch).toContain("diff --git a/b.txt b/b.txt");
    expect(patch).toContain("+untracked");
    expect(patch).toContain("deleted file mode");
    expect(git(repo, "status", "--porcelain")).toBe(statusBefore);
    const cut = await worktreeDiff(repo, base, 40);
    expect(cut).toMatch(/^[\s\S]{40}\n\[\.\.\. the diff is cut here: \d+ characters in all\]$/);
  });
});
