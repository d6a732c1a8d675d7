import type { SessionRecord, Store } from "@hatloop/core";
import { removeTaskWorktree } from "@hatloop/tools";

/**
 * Takes back a session whose loop never ran: its worktree and branch hold nothing but the base
 * commit, so both go, and so does its row (with everything that cascades from it).
 */
export async function discardUnstartedSession(store: Store, session: SessionRecord): Promise<void> {
  if (!session.inPlace)
    await removeTaskWorktree({ repoRoot: session.repoPath, worktreePath: session.worktreePath, deleteBranch: session.branch });
  await store.sessions.delete(session.id);
}
