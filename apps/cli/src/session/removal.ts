import { existsSync } from "node:fs";
import { errorMessage } from "@hatloop/context";
import type { SessionRecord, Store } from "@hatloop/core";
import { dirtyStateRef, hasChangesSince, hasRef, removeTaskWorktree, unmergedCommits } from "@hatloop/tools";
import { shortId } from "../format.js";
import { displayStatus, isLive } from "./liveness.js";

// Removing a session (hatloop rm, hatloop prune): its worktree, its task branch unless the branch
// holds commits no other branch has, and its rows — messages, events, checkpoints and checklist go
// with the session row (ON DELETE CASCADE); knowledge facts stay with the repository. An in-place
// session worked in the user's own checkout and branch: those are never touched.

export interface RemoveOptions {
  /** Also running sessions, worktrees with uncommitted changes and branches with unmerged commits. */
  force: boolean;
  dryRun: boolean;
}

/** What happened to one session (the `--json` output). */
export interface Removal {
  id: string;
  status: string;
  removed: boolean;
  dryRun: boolean;
  /** Why the session was not removed. */
  refused: string | null;
  /** The worktree removed (or that would be). */
  worktree: string | null;
  /** The branch deleted (or that would be). */
  branch: string | null;
  /** What was kept on purpose, and why. */
  kept: string[];
}

export async function removeSessions(store: Store, sessions: SessionRecord[], options: RemoveOptions): Promise<Removal[]> {
  const removals: Removal[] = [];
  for (const session of sessions) {
    const removal = await planRemoval(session, options);
    removals.push(removal.refused || options.dryRun ? removal : await carryOut(store, session, removal));
  }
  return removals;
}

async function planRemoval(session: SessionRecord, { force, dryRun }: RemoveOptions): Promise<Removal> {
  const plan: Removal = {
    id: session.id,
    status: displayStatus(session),
    removed: false,
    dryRun,
    refused: null,
    worktree: null,
    branch: null,
    kept: [],
  };
  if (isLive(session) && !force) return { ...plan, refused: `it is running (pid ${session.pid}); stop it first, or use --force` };
  const repo = session.repoPath;
  if (!existsSync(repo)) return plan; // the repository is gone, and its worktrees and branches with it
  if (session.inPlace) {
    const ref = dirtyStateRef(shortId(session.id));
    if (await hasRef(repo, ref))
      plan.kept.push(
        `${ref}: your uncommitted changes from before the session (git stash apply ${ref}; delete it with git update-ref -d ${ref})`,
      );
    return plan;
  }
  if (existsSync(session.worktreePath)) {
    if (!force && (await hasChangesSince(session.worktreePath, "HEAD").catch(() => false))) {
      return { ...plan, refused: `its worktree ${session.worktreePath} has uncommitted changes (commit them, or use --force)` };
    }
    plan.worktree = session.worktreePath;
  }
  if (await hasRef(repo, `refs/heads/${session.branch}`)) {
    const unmerged = force ? 0 : await unmergedCommits(repo, session.branch);
    if (unmerged === 0) plan.branch = session.branch;
    else
      plan.kept.push(
        `branch ${session.branch}: ${unmerged} commit${unmerged === 1 ? "" : "s"} not merged into any other branch (merge it, or use --force to delete it)`,
      );
  }
  return plan;
}

async function carryOut(store: Store, session: SessionRecord, plan: Removal): Promise<Removal> {
  try {
    if (!session.inPlace && existsSync(session.repoPath)) {
      await removeTaskWorktree({ repoRoot: session.repoPath, worktreePath: session.worktreePath, deleteBranch: plan.branch ?? undefined });
    }
    await store.sessions.delete(session.id);
    return { ...plan, removed: true };
  } catch (error) {
    return { ...plan, refused: `could not remove it: ${errorMessage(error)}` };
  }
}

/** One line per session, and an indented line for each thing kept. */
export function describeRemoval(r: Removal, session: Pick<SessionRecord, "inPlace" | "branch">): string {
  const sid = shortId(r.id);
  if (r.refused) return `not removed ${sid}: ${r.refused}`;
  const parts = [r.worktree && `worktree ${r.worktree}`, r.branch && `branch ${r.branch}`].filter(Boolean);
  const what = session.inPlace
    ? `: in place, so your checkout and branch ${session.branch} are left as they are`
    : parts.length
      ? `: ${parts.join(", ")}`
      : "";
  return [`${r.dryRun ? "would remove" : "removed"} ${sid}${what}`, ...r.kept.map((k) => `  kept ${k}`)].join("\n");
}
