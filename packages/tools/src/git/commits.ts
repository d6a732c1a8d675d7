import { commitConfig, gitAt, gitErrorLine } from "./client.js";
import { commitFailpoint } from "./commit-failpoint.js";
import { WorkspaceError } from "./workspace-error.js";

// Commits on the task branch: one per checkpoint, so a checkpoint names the exact tree it
// belongs to. They must never fail for reasons the loop cannot fix (no identity, a hook, a
// signing prompt, nothing to commit).

export async function headCommit(dir: string): Promise<string> {
  return (await gitAt(dir).raw(["rev-parse", "HEAD"])).trim();
}

/** Stages everything (new files included) and commits; returns HEAD unchanged when nothing changed. */
export async function commitAll(dir: string, message: string): Promise<string> {
  const git = gitAt(dir);
  await git.raw(["add", "--all"]);
  const staged = await git.raw(["diff", "--cached", "--name-only", "-z"]);
  if (staged.length === 0) return headCommit(dir);
  const failpoint = commitFailpoint();
  const committer = gitAt(dir, { ...failpoint, config: [...(await commitConfig(dir)), ...(failpoint.config ?? [])] });
  try {
    await committer.raw(["commit", "--quiet", "--no-verify", "-m", message]);
  } catch (error) {
    throw new WorkspaceError("git_failed", `could not commit in ${dir}: ${gitErrorLine(error)}`);
  }
  return headCommit(dir);
}

/** Uncommitted changes (untracked files included), or HEAD is no longer `commit`. */
export async function hasChangesSince(dir: string, commit: string): Promise<boolean> {
  const git = gitAt(dir);
  const head = await headCommit(dir);
  if (head !== (await resolveCommit(dir, commit))) return true;
  const status = await git.raw(["status", "--porcelain", "--untracked-files=normal"]);
  return status.trim().length > 0;
}

/** Puts the tree back at `commit`: tracked files reset, untracked (not ignored) files removed. */
export async function resetTo(dir: string, commit: string): Promise<void> {
  const sha = await resolveCommit(dir, commit);
  const git = gitAt(dir);
  await git.raw(["reset", "--quiet", "--hard", sha]);
  await git.raw(["clean", "--quiet", "-fd"]);
}

async function resolveCommit(dir: string, commit: string): Promise<string> {
  // With --quiet, an unknown commit is an empty answer rather than an error.
  const sha = await gitAt(dir)
    .raw(["rev-parse", "--verify", "--quiet", `${commit}^{commit}`])
    .then(
      (out) => out.trim(),
      () => "",
    );
  if (sha === "") throw new WorkspaceError("git_failed", `unknown commit ${commit} in ${dir}`);
  return sha;
}
