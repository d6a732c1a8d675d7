import { rm, stat } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { gitAt } from "./client.js";

// A git command killed mid-way (kill -9 of hatloop's process group during a checkpoint commit)
// leaves its lock files behind, and every later commit in that worktree fails on them. A run holds
// its session's lease, so no other hatloop touches the worktree: a lock present when the run starts
// is stale. Only the task worktree's own locks are removed, never those of the user's checkout.

const LOCKS = ["index.lock", "HEAD.lock", "ORIG_HEAD.lock"];

/** Removes the stale lock files of a task worktree (its index, HEAD and branch ref); returns their paths. */
export async function clearStaleLocks(worktree: string, branch: string): Promise<string[]> {
  const git = gitAt(worktree);
  const [gitDir, commonDir] = (await git.raw(["rev-parse", "--git-dir", "--git-common-dir"]))
    .trim()
    .split("\n")
    .map((p) => (isAbsolute(p) ? p : join(worktree, p)));
  const candidates = [...LOCKS.map((name) => join(gitDir!, name)), join(commonDir!, "refs", "heads", `${branch}.lock`)];
  const removed: string[] = [];
  for (const path of candidates) {
    if (!(await stat(path).catch(() => null))) continue;
    await rm(path, { force: true });
    removed.push(path);
  }
  return removed;
}
