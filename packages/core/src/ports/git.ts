import type { GitFacts } from "@hatloop/context";

/** Git facts the loop needs; implemented with simple-git by @hatloop/tools. Never from the model. */
export interface GitPort {
  /** Commits everything in the worktree; returns the new HEAD (or the old one if nothing changed). */
  commitAll(dir: string, message: string): Promise<string>;
  headCommit(dir: string): Promise<string>;
  /**
   * The work since `baseCommit`: committed, uncommitted and untracked. `cleanAt`: the worktree is that
   * commit's tree (commitAll just returned it), so nothing uncommitted needs looking for.
   */
  facts(dir: string, baseCommit: string, cleanAt?: string): Promise<GitFacts>;
  /**
   * Keeps the worktree's state after an iteration that ran tools, where another runner can restore
   * it (a fleet worker: a hidden ref on the remote). Absent where the worktree itself survives a crash.
   */
  snapshot?(dir: string, iteration: number): Promise<void>;
}
