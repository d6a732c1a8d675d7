import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commitAll } from "./commits.js";
import { clearStaleLocks } from "./stale-locks.js";

function repoWithWorktree(): { worktree: string; branch: string } {
  const root = mkdtempSync(join(tmpdir(), "hatloop-locks-"));
  const repo = join(root, "repo");
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args], { cwd, stdio: "pipe" });
  execFileSync("mkdir", ["-p", repo]);
  git(repo, "init", "-q");
  writeFileSync(join(repo, "a.txt"), "a\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "init");
  const worktree = join(root, "wt");
  git(repo, "worktree", "add", "-q", "-b", "hatloop/abc12345", worktree);
  return { worktree, branch: "hatloop/abc12345" };
}

describe("clearStaleLocks", () => {
  it("removes the locks a killed commit left, so the next checkpoint commit works", async () => {
    const { worktree, branch } = repoWithWorktree();
    const gitDir = execFileSync("git", ["rev-parse", "--git-dir"], { cwd: worktree }).toString().trim();
    const common = execFileSync("git", ["rev-parse", "--git-common-dir"], { cwd: worktree }).toString().trim();
    const locks = [join(gitDir, "index.lock"), join(gitDir, "HEAD.lock"), join(common, "refs/heads", `${branch}.lock`)];
    for (const lock of locks) writeFileSync(lock, "");
    writeFileSync(join(worktree, "b.txt"), "b\n");
    await expect(commitAll(worktree, "blocked")).rejects.toThrow(/lock/);
    expect((await clearStaleLocks(worktree, branch)).sort()).toEqual([...locks].sort());
    expect(locks.some((l) => existsSync(l))).toBe(false);
    await expect(commitAll(worktree, "works")).resolves.toMatch(/^[0-9a-f]{40}$/);
    expect(await clearStaleLocks(worktree, branch)).toEqual([]);
  });
});
