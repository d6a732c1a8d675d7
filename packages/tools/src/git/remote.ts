import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { gitAt, gitErrorLine } from "./client.js";
import { WorkspaceError } from "./workspace-error.js";

// The fleet's git: a task's repository travels with its session. A worker keeps a bare copy of each
// repository (fetched, never pushed to by hand), works in a worktree of it on the task branch, and
// pushes the branch after each checkpoint commit, so any worker can resume from the exact tree a
// checkpoint names. Remote branches are mirrored under refs/remotes/origin/, so a fetch never touches
// a branch that a worktree has checked out.

const failed = (what: string) => (error: unknown) => {
  throw new WorkspaceError("git_failed", `${what}: ${gitErrorLine(error)}`);
};

/** Clones `url` bare into `repoDir` the first time, fetches every branch after; returns `repoDir`. */
export async function syncRepository(url: string, repoDir: string): Promise<string> {
  if (!existsSync(path.join(repoDir, "HEAD"))) {
    await rm(repoDir, { recursive: true, force: true });
    await mkdir(path.dirname(repoDir), { recursive: true });
    await gitAt(path.dirname(repoDir))
      .raw(["clone", "--quiet", "--bare", "--", url, repoDir])
      .catch(failed(`cannot clone ${url}`));
    await gitAt(repoDir).raw(["config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"]);
  }
  // Another worker's push may race a ref update (a lock): once more, then give up.
  const fetch = () => gitAt(repoDir).raw(["fetch", "--quiet", "--prune", "origin"]);
  await fetch()
    .catch(() => sleep(500).then(fetch))
    .catch(failed(`cannot fetch ${url}`));
  return repoDir;
}

/** The commit the remote's `branch` was at when last fetched; null when it has no such branch. */
export async function fetchedBranch(repoDir: string, branch: string): Promise<string | null> {
  const out = await gitAt(repoDir)
    .raw(["rev-parse", "--verify", "--quiet", `refs/remotes/origin/${branch}^{commit}`])
    .then(
      (o) => o.trim(),
      () => "",
    );
  return out || null;
}

/** True when `commit` is present in the repository. */
export async function hasCommit(repoDir: string, commit: string): Promise<boolean> {
  return gitAt(repoDir)
    .raw(["cat-file", "-e", `${commit}^{commit}`])
    .then(
      () => true,
      () => false,
    );
}

/**
 * (Re)creates the worktree at `worktreePath` on `branch`, checked out at `commit`: whatever a
 * previous run of this worker left there is thrown away (the truth is the pushed checkpoint).
 */
export async function checkoutTaskWorktree(repoDir: string, worktreePath: string, branch: string, commit: string): Promise<void> {
  const git = gitAt(repoDir);
  if (existsSync(worktreePath))
    await git.raw(["worktree", "remove", "--force", worktreePath]).catch(() => rm(worktreePath, { recursive: true, force: true }));
  await git.raw(["worktree", "prune"]);
  await mkdir(path.dirname(worktreePath), { recursive: true });
  await git
    .raw(["worktree", "add", "--quiet", "--force", "-B", branch, worktreePath, commit])
    .catch(failed("could not create the worktree"));
}

/**
 * Pushes `commit` to the remote's `branch` if the remote still has it at `expected` (null: the
 * branch must not exist yet), or whatever it has with `force`. False when the remote moved on.
 */
export async function pushTaskBranch(
  dir: string,
  branch: string,
  commit: string,
  expected: string | null,
  force = false,
): Promise<boolean> {
  const ref = `refs/heads/${branch}`;
  const lease = force ? ["--force"] : [`--force-with-lease=${ref}:${expected ?? ""}`];
  try {
    await gitAt(dir).raw(["push", "--quiet", "--no-verify", ...lease, "origin", `${commit}:${ref}`]);
    return true;
  } catch (error) {
    const line = gitErrorLine(error);
    if (/stale info|rejected|fetch first|non-fast-forward/i.test(error instanceof Error ? error.message : String(error))) return false;
    throw new WorkspaceError("git_failed", `could not push ${branch}: ${line}`);
  }
}
