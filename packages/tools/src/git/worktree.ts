import { mkdir, realpath, rmdir, stat } from "node:fs/promises";
import path from "node:path";
import { gitAt, gitErrorLine } from "./client.js";
import { hasRef } from "./dirty-state.js";
import { WorkspaceError } from "./workspace-error.js";

// Where a task runs: by default a new branch `hatloop/<shortId>` in its own worktree next to the
// repository, so the user's checkout is never touched; or, in place, the checkout itself.

export interface TaskWorkspace {
  /** Real path of the repository's top level. */
  repoRoot: string;
  /** Real path of the directory the agent works in. */
  worktreePath: string;
  branch: string;
  /** The commit the task started from. */
  baseCommit: string;
}

export interface CreateTaskWorktreeOptions {
  repoDir: string;
  sessionShortId: string;
  /** Parent directory for worktrees; default `<repoParent>/.hatloop-worktrees`. */
  worktreeDir?: string;
}

const DEFAULT_PARENT = ".hatloop-worktrees";
const FIRST_COMMIT_HINT = 'git init && git add -A && git commit -m "initial"';

export function taskBranchName(sessionShortId: string): string {
  return `hatloop/${sessionShortId}`;
}

/**
 * Where a task's worktree goes and what it starts from, checked (branch and directory free) but not
 * created yet: a caller records the session first, so a kill while the worktree is made never leaves
 * one that no session names. Only the parent directory is made (to resolve its real path).
 */
export async function planTaskWorktree(options: CreateTaskWorktreeOptions): Promise<TaskWorkspace> {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(options.sessionShortId)) {
    throw new WorkspaceError("invalid_session_id", `invalid session id "${options.sessionShortId}" for a branch name`);
  }
  const { repoRoot, baseCommit } = await findRepository(options.repoDir);
  const branch = taskBranchName(options.sessionShortId);
  const parent = options.worktreeDir ? path.resolve(options.worktreeDir) : path.join(path.dirname(repoRoot), DEFAULT_PARENT);
  const worktreePath = path.join(parent, `${path.basename(repoRoot)}-${options.sessionShortId}`);

  if (await hasRef(repoRoot, `refs/heads/${branch}`))
    throw new WorkspaceError("branch_exists", `branch ${branch} already exists in ${repoRoot}`);
  if (await pathExists(worktreePath)) {
    throw new WorkspaceError("worktree_exists", `worktree directory ${worktreePath} already exists`);
  }
  await mkdir(parent, { recursive: true });
  return { repoRoot, worktreePath: path.join(await realpath(parent), path.basename(worktreePath)), branch, baseCommit };
}

/** Makes a planned worktree: its branch at the base commit, checked out at its path. */
export async function makeTaskWorktree(planned: TaskWorkspace): Promise<TaskWorkspace> {
  try {
    await gitAt(planned.repoRoot).raw(["worktree", "add", "--quiet", "-b", planned.branch, planned.worktreePath, planned.baseCommit]);
  } catch (error) {
    throw new WorkspaceError("git_failed", `could not create the worktree: ${gitErrorLine(error)}`);
  }
  return planned;
}

export async function createTaskWorktree(options: CreateTaskWorktreeOptions): Promise<TaskWorkspace> {
  return makeTaskWorktree(await planTaskWorktree(options));
}

/** Work directly in the checkout, on its current branch. */
export async function inPlaceWorkspace(repoDir: string): Promise<TaskWorkspace> {
  const { repoRoot, baseCommit } = await findRepository(repoDir);
  const branch = (await gitAt(repoRoot).raw(["rev-parse", "--abbrev-ref", "HEAD"])).trim();
  if (branch === "HEAD") {
    throw new WorkspaceError("detached_head", `HEAD is detached in ${repoRoot}; check out a branch to work in place`);
  }
  return { repoRoot, worktreePath: repoRoot, branch, baseCommit };
}

export interface RemoveTaskWorktreeOptions {
  repoRoot: string;
  worktreePath: string;
  /** Also delete the task branch (default false: the work lives on it). */
  deleteBranch?: string;
}

/** Removes the worktree even with uncommitted changes; the branch is kept unless asked. */
export async function removeTaskWorktree(options: RemoveTaskWorktreeOptions): Promise<void> {
  const git = gitAt(options.repoRoot);
  try {
    if (await pathExists(options.worktreePath)) {
      await git.raw(["worktree", "remove", "--force", "--force", options.worktreePath]);
    }
    await git.raw(["worktree", "prune"]);
    // Tidy up the default parent once its last worktree is gone; rmdir fails if it is not empty.
    const parent = path.dirname(options.worktreePath);
    if (path.basename(parent) === DEFAULT_PARENT) await rmdir(parent).catch(() => undefined);
    // A start killed before its worktree was made left no branch to delete.
    if (options.deleteBranch && (await hasRef(options.repoRoot, `refs/heads/${options.deleteBranch}`)))
      await git.raw(["branch", "-D", options.deleteBranch]);
  } catch (error) {
    throw new WorkspaceError("git_failed", `could not remove the worktree: ${gitErrorLine(error)}`);
  }
}

/**
 * The repository containing `dir` and its HEAD commit; creates nothing. Both ways of running (a
 * worktree or in place) need a repository with a commit, so both get the same advice.
 */
export async function findRepository(dir: string): Promise<{ repoRoot: string; baseCommit: string }> {
  const resolved = path.resolve(dir);
  const info = await stat(resolved).catch(() => undefined);
  if (!info?.isDirectory()) throw new WorkspaceError("no_such_directory", `${resolved} is not a directory`);
  const git = gitAt(resolved);
  let top: string;
  try {
    top = (await git.raw(["rev-parse", "--show-toplevel"])).trim();
  } catch {
    top = "";
  }
  if (top === "") {
    throw new WorkspaceError(
      "not_a_repository",
      `${resolved} is not a git repository; hatloop works in one: create it with ${FIRST_COMMIT_HINT}, then start again`,
    );
  }
  const repoRoot = await realpath(top);
  const head = await gitAt(repoRoot)
    .raw(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"])
    .then(
      (out) => out.trim(),
      () => "",
    );
  if (head === "") {
    throw new WorkspaceError(
      "no_commits",
      `the repository ${repoRoot} has no commits yet; make a first one (git add -A && git commit -m "initial"), then start again`,
    );
  }
  return { repoRoot, baseCommit: head };
}

async function pathExists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}
