import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { git, isolateGit, tempDir, tempRepo, writeFiles } from "../test-support/fixtures.js";
import { createTaskWorktree, inPlaceWorkspace, removeTaskWorktree } from "./worktree.js";

beforeAll(isolateGit);

describe("createTaskWorktree", () => {
  it("creates hatloop/<id> from HEAD in a sibling directory", async () => {
    const repo = tempRepo();
    const head = git(repo, "rev-parse", "HEAD");
    const ws = await createTaskWorktree({ repoDir: repo, sessionShortId: "ab12cd" });
    const expectedPath = path.join(path.dirname(repo), ".hatloop-worktrees", `${path.basename(repo)}-ab12cd`);
    try {
      expect(ws).toEqual({ repoRoot: repo, worktreePath: realpathSync(expectedPath), branch: "hatloop/ab12cd", baseCommit: head });
      expect(git(ws.worktreePath, "rev-parse", "--abbrev-ref", "HEAD")).toBe("hatloop/ab12cd");
      expect(existsSync(path.join(ws.worktreePath, "README.md"))).toBe(true);
      // The user's checkout stays on its branch.
      expect(git(repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
    } finally {
      await removeTaskWorktree({ repoRoot: ws.repoRoot, worktreePath: ws.worktreePath, deleteBranch: ws.branch });
    }
    expect(existsSync(ws.worktreePath)).toBe(false);
    expect(git(repo, "branch", "--list", "hatloop/*")).toBe("");
  });

  it("honours worktreeDir and works from a subdirectory of the repository", async () => {
    const repo = tempRepo({ "src/a.ts": "" });
    const parent = tempDir();
    const ws = await createTaskWorktree({ repoDir: path.join(repo, "src"), sessionShortId: "s1", worktreeDir: parent });
    expect(ws.repoRoot).toBe(repo);
    expect(ws.worktreePath).toBe(path.join(parent, `${path.basename(repo)}-s1`));
    await removeTaskWorktree({ repoRoot: repo, worktreePath: ws.worktreePath });
    expect(git(repo, "branch", "--list", "hatloop/s1")).toContain("hatloop/s1"); // kept by default
  });

  it("gives one-line errors for a plain directory, an empty repository and a taken name", async () => {
    const plain = tempDir();
    await expect(createTaskWorktree({ repoDir: plain, sessionShortId: "x1" })).rejects.toMatchObject({
      code: "not_a_repository",
      message: `${plain} is not a git repository; hatloop works in one: create it with git init && git add -A && git commit -m "initial", then start again`,
    });
    const empty = tempDir();
    git(empty, "init", "--quiet");
    await expect(createTaskWorktree({ repoDir: empty, sessionShortId: "x1" })).rejects.toMatchObject({ code: "no_commits" });

    const repo = tempRepo();
    const parent = tempDir();
    git(repo, "branch", "hatloop/taken");
    await expect(createTaskWorktree({ repoDir: repo, sessionShortId: "taken", worktreeDir: parent })).rejects.toMatchObject({
      code: "branch_exists",
      message: `branch hatloop/taken already exists in ${repo}`,
    });
    writeFiles(
      parent,
      [`${path.basename(repo)}-busy/file`].reduce((o, k) => ({ ...o, [k]: "" }), {}),
    );
    await expect(createTaskWorktree({ repoDir: repo, sessionShortId: "busy", worktreeDir: parent })).rejects.toMatchObject({
      code: "worktree_exists",
    });
    await expect(createTaskWorktree({ repoDir: repo, sessionShortId: "../evil" })).rejects.toMatchObject({ code: "invalid_session_id" });
    for (const error of await Promise.allSettled([createTaskWorktree({ repoDir: plain, sessionShortId: "y" })])) {
      expect(error.status === "rejected" && String(error.reason.message)).not.toContain("\n");
    }
  });
});

describe("inPlaceWorkspace", () => {
  it("uses the checkout on its current branch", async () => {
    const repo = tempRepo();
    git(repo, "checkout", "--quiet", "-b", "feature");
    expect(await inPlaceWorkspace(repo)).toEqual({
      repoRoot: repo,
      worktreePath: repo,
      branch: "feature",
      baseCommit: git(repo, "rev-parse", "HEAD"),
    });
  });

  it("refuses a detached HEAD and a plain directory", async () => {
    const repo = tempRepo();
    git(repo, "checkout", "--quiet", "--detach");
    await expect(inPlaceWorkspace(repo)).rejects.toMatchObject({ code: "detached_head" });
    await expect(inPlaceWorkspace(tempDir())).rejects.toMatchObject({ code: "not_a_repository" });
  });
});
