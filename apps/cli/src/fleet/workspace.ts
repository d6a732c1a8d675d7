import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { findRestorePoint, LeaseLostError, type GitPort, type Store } from "@hatloop/core";
import { hatloopHome } from "@hatloop/db";
import {
  checkoutTaskWorktree,
  fetchedBranch,
  fetchSnapshot,
  hasCommit,
  headTree,
  pushSnapshot,
  pushTaskBranch,
  removeTaskWorktree,
  restoreSnapshot,
  snapshotCommit,
  syncRepository,
  worktreeTree,
} from "@hatloop/tools";
import { CliError } from "../errors.js";
import { shortId } from "../format.js";

// Where a worker runs a session: its own bare copy of the session's repository (cloned once, fetched
// at every take) and a worktree on the task branch at the commit of the checkpoint it resumes from,
// with the files of the newest snapshot taken after that checkpoint (the writes of every iteration a
// killed runner closed since).

export function workerDir(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(hatloopHome(env), "fleet", name.replace(/[^A-Za-z0-9._-]/g, "_"));
}

/** Git writes to one repository copy (fetches, pushes: both update its refs) are one at a time within a worker. */
const repoLocks = new Map<string, Promise<unknown>>();
function serially<T>(key: string, work: () => Promise<T>): Promise<T> {
  const next = (repoLocks.get(key) ?? Promise.resolve()).then(work, work);
  repoLocks.set(
    key,
    next.catch(() => {}),
  );
  return next;
}

export interface PreparedWorkspace {
  repoDir: string;
  worktreePath: string;
  /** The commit the worktree starts at. */
  commit: string;
  /** Where the remote's task branch was when fetched (null: not pushed yet). */
  remoteTip: string | null;
  /** The iteration whose end the worktree's files hold (0: the start), a snapshot's when one was restored. */
  through: number;
  /** Whether a snapshot newer than the checkpoint was restored. */
  restored: boolean;
}

const SNAPSHOT_LABEL = /^hatloop snapshot: iteration (\d+)/;

/**
 * Fetches the repository and checks the task branch out at the latest checkpoint's commit (pushed
 * before that checkpoint was stored), else at the remote branch, else at the session's base commit.
 */
export async function prepareWorkspace(options: {
  dir: string;
  repoUrl: string;
  store: Store;
  sessionId: string;
  branch: string;
  baseCommit: string;
}): Promise<PreparedWorkspace> {
  const { dir, repoUrl, sessionId, branch } = options;
  const repoDir = join(dir, "repos", `${createHash("sha256").update(repoUrl).digest("hex").slice(0, 16)}.git`);
  const worktreePath = join(dir, "worktrees", shortId(sessionId));
  return serially(repoDir, async () => {
    await syncRepository(repoUrl, repoDir);
    const remoteTip = await fetchedBranch(repoDir, branch);
    const checkpoint = (await findRestorePoint(options.store, sessionId)).checkpoint;
    const checkpointCommit = checkpoint?.gitCommit ?? null;
    let commit = checkpointCommit ?? remoteTip ?? options.baseCommit;
    if (!(await hasCommit(repoDir, commit))) {
      if (checkpointCommit && remoteTip) commit = remoteTip;
      else throw new CliError(`commit ${commit.slice(0, 12)} of session ${shortId(sessionId)} is not in ${repoUrl}`);
    }
    await checkoutTaskWorktree(repoDir, worktreePath, branch, commit);
    // A snapshot on another commit belongs to an older checkpoint: the checkpoint holds its files.
    const snapshot = await fetchSnapshot(repoDir, branch);
    const snapshotIteration = Number(SNAPSHOT_LABEL.exec(snapshot?.label ?? "")?.[1] ?? -1);
    const through = checkpoint?.iteration ?? 0;
    if (snapshot?.parent !== commit || snapshotIteration < through)
      return { repoDir, worktreePath, commit, remoteTip, through, restored: false };
    await restoreSnapshot(worktreePath, snapshot.commit);
    return { repoDir, worktreePath, commit, remoteTip, through: snapshotIteration, restored: true };
  });
}

/**
 * Removes a session's worktree and this worker's copy of its task branch once its run has ended
 * (final, or back in the queue): every checkpoint is on the remote, and a next run starts from one.
 */
export function removeWorkspace(workspace: PreparedWorkspace, branch: string): Promise<void> {
  const { repoDir, worktreePath } = workspace;
  return serially(repoDir, () => removeTaskWorktree({ repoRoot: repoDir, worktreePath, deleteBranch: branch }));
}

/** At a worker's start: worktrees left by a previous worker of this name that was killed (the name lock is held). */
export function clearLeftWorktrees(dir: string): void {
  rmSync(join(dir, "worktrees"), { recursive: true, force: true });
}

/**
 * The loop's git, plus a push of the task branch after every checkpoint commit, before the
 * checkpoint row names it. The push expects the remote where this runner last saw it; if the remote
 * moved (a runner that lost the session pushed meanwhile), it pushes over it only while this runner
 * still holds the lease, else it stops with LeaseLostError.
 */
export function pushingGitPort(
  base: GitPort,
  options: {
    sessionId: string;
    branch: string;
    workspace: Pick<PreparedWorkspace, "repoDir" | "remoteTip">;
    stillHeld(): Promise<boolean>;
  },
): GitPort {
  const { repoDir } = options.workspace;
  let expected = options.workspace.remoteTip;
  let kept: string | null = null; // the tree of the last snapshot pushed
  return {
    ...base,
    async snapshot(dir, iteration) {
      const tree = await worktreeTree(dir);
      if (tree === (kept ?? (await headTree(dir)))) return; // nothing a checkpoint or the last snapshot lacks
      if (!(await options.stillHeld())) throw new LeaseLostError(options.sessionId);
      const commit = await snapshotCommit(dir, tree, `hatloop snapshot: iteration ${iteration}`);
      await serially(repoDir, () => pushSnapshot(dir, options.branch, commit));
      kept = tree;
    },
    async commitAll(dir, message) {
      const sha = await base.commitAll(dir, message);
      if (sha === expected) return sha;
      await serially(repoDir, async () => {
        if (await pushTaskBranch(dir, options.branch, sha, expected)) return;
        if (!(await options.stillHeld())) throw new LeaseLostError(options.sessionId);
        await pushTaskBranch(dir, options.branch, sha, null, true);
      });
      expected = sha;
      return sha;
    },
  };
}
