import { join } from "node:path";
import type { Store } from "@hatloop/core";
import type { ChangesLoader } from "@hatloop/tui";
import { commitDiff } from "../serve/commit-diff.js";

// The TUI's files view reads what the console's session page reads: a checkpoint commit's diff
// from the session's worktree (commitDiff), the session row read at each call since the worktree
// may be made, or moved to another machine, after the view opened.

export function worktreeChanges(store: Store, sessionId: string): ChangesLoader {
  const here = async () => {
    const session = await store.sessions.get(sessionId);
    return session?.worktreePath ? session : null;
  };
  return {
    diff: async (commit) => {
      const session = await here();
      return session ? commitDiff(session, commit) : null;
    },
    path: async (file) => {
      const session = await here();
      return session?.worktreePath ? join(session.worktreePath, file) : null;
    },
  };
}
