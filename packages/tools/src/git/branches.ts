import { gitAt } from "./client.js";

/**
 * Commits on `branch` that no other branch (local or remote-tracking) contains: the work that
 * deleting the branch would lose. A squash-merged branch still counts as unmerged (the safe side).
 */
export async function unmergedCommits(repoRoot: string, branch: string): Promise<number> {
  const out = await gitAt(repoRoot).raw([
    "rev-list",
    "--count",
    `refs/heads/${branch}`,
    "--not",
    `--exclude=${branch}`,
    "--branches",
    "--remotes",
  ]);
  return Number(out.trim());
}
