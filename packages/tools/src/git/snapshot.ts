import { execa } from "execa";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { commitConfig, gitAt, gitErrorLine } from "./client.js";
import { WorkspaceError } from "./workspace-error.js";

// A fleet worker's writes between checkpoints, kept where another worker can find them: the
// worktree's whole state (untracked files included, ignored ones not) as a commit whose parent is
// HEAD, under a hidden ref on the remote. Taking one never touches the worktree, its index or HEAD.

/** The hidden ref that holds the newest snapshot of a task branch. */
export function snapshotRef(branch: string): string {
  return `refs/hatloop/snapshots/${branch}`;
}

/** The worktree's whole state as a tree object (untracked files included, ignored ones not). */
export async function worktreeTree(dir: string): Promise<string> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), "hatloop-snapshot-"));
  // A copy of the real index, so `git add` only looks again at what changed; the real one is untouched.
  const index = path.join(scratch, "index");
  try {
    const gitDir = (await gitAt(dir).raw(["rev-parse", "--absolute-git-dir"])).trim();
    await copyFile(path.join(gitDir, "index"), index).catch(() => {});
    const env = { GIT_INDEX_FILE: index };
    // execa rather than simple-git: simple-git refuses a custom environment (see facts.ts).
    await execa("git", ["add", "--all"], { cwd: dir, env, stdin: "ignore" });
    return (await execa("git", ["write-tree"], { cwd: dir, env, stdin: "ignore" })).stdout.trim();
  } catch (error) {
    throw new WorkspaceError("git_failed", `could not snapshot ${dir}: ${gitErrorLine(error)}`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** A commit of `tree` on HEAD (not on any branch); `label` is its message. */
export async function snapshotCommit(dir: string, tree: string, label: string): Promise<string> {
  const git = gitAt(dir, { config: await commitConfig(dir) });
  return (await git.raw(["commit-tree", tree, "-p", "HEAD", "-m", label])).trim();
}

/** HEAD's tree: a snapshot with this tree holds nothing a checkpoint does not. */
export async function headTree(dir: string): Promise<string> {
  return (await gitAt(dir).raw(["rev-parse", "HEAD^{tree}"])).trim();
}

/** Pushes a snapshot over the remote's hidden ref (only one snapshot per branch is ever needed). */
export async function pushSnapshot(dir: string, branch: string, commit: string): Promise<void> {
  await gitAt(dir)
    .raw(["push", "--quiet", "--no-verify", "--force", "origin", `${commit}:${snapshotRef(branch)}`])
    .catch((error: unknown) => {
      throw new WorkspaceError("git_failed", `could not push the snapshot of ${branch}: ${gitErrorLine(error)}`);
    });
}

/** The remote's newest snapshot of `branch`, fetched into `repoDir`; null when there is none. */
export async function fetchSnapshot(repoDir: string, branch: string): Promise<{ commit: string; parent: string; label: string } | null> {
  const ref = snapshotRef(branch);
  const fetched = await gitAt(repoDir)
    .raw(["fetch", "--quiet", "origin", `+${ref}:${ref}`])
    .then(
      () => true,
      () => false, // no snapshot on the remote
    );
  if (!fetched) return null;
  const [commit = "", parent = "", ...label] = (await gitAt(repoDir).raw(["log", "-1", "--format=%H%n%P%n%B", ref])).trim().split("\n");
  return { commit, parent, label: label.join("\n").trim() };
}

/** Makes the worktree's files those of `commit` (deleted files too), with the index and HEAD left alone. */
export async function restoreSnapshot(dir: string, commit: string): Promise<void> {
  const git = gitAt(dir);
  await git.raw(["read-tree", "-u", "--reset", commit]);
  await git.raw(["reset", "--quiet"]);
}
