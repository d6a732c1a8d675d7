import type { GitFacts } from "@hatloop/context";

/** Git facts the loop needs; implemented with simple-git by @hatloop/tools. Never from the model. */
export interface GitPort {
  /** Commits everything in the worktree; returns the new HEAD (or the old one if nothing changed). */
  commitAll(dir: string, message: string): Promise<string>;
  headCommit(dir: string): Promise<string>;
  facts(dir: string, baseCommit: string): Promise<GitFacts>;
}
