import { existsSync } from "node:fs";
import { hostname } from "node:os";
import type { SessionRecord } from "@hatloop/core";

// Where a session's worktree is, as far as this machine can tell, so that `show` prints a path as
// something to cd into only when it is here. The session row keeps the path and the host of the
// process that made it (`run`, or the fleet worker that took the session last); a fleet worker
// removes its worktree when a run ends (the work is on the remote's task branch).

/** here: on this machine; gone: removed; elsewhere: on another machine; none: not made yet (a queued fleet session). */
export type WorktreeState = "here" | "gone" | "elsewhere" | "none";

export function worktreeState(session: SessionRecord, fleet: { queue: string | null } | undefined): WorktreeState {
  if (!session.worktreePath) return "none";
  const elsewhere = session.host !== null && session.host !== hostname();
  // A worker's worktree outlives its run only while the worker runs it.
  if (fleet && fleet.queue !== "active" && (elsewhere || !existsSync(session.worktreePath))) return "gone";
  if (elsewhere) return "elsewhere";
  return existsSync(session.worktreePath) ? "here" : "gone";
}

/** What `show` prints after "worktree". */
export function describeWorktree(session: SessionRecord, state: WorktreeState, isFleet: boolean): string {
  const path = session.worktreePath;
  const elsewhere = session.host !== null && session.host !== hostname() ? ` on ${session.host}` : "";
  switch (state) {
    case "here":
      return path;
    case "none":
      return "none yet (a worker makes one when it takes the session)";
    case "elsewhere":
      return `on ${session.host}, not this machine: ${path}`;
    case "gone":
      return isFleet
        ? `gone (was ${path}${elsewhere}; removed by its worker when the run ended; the work is on the remote's branch ${session.branch})`
        : `gone (was ${path}; removed from this machine)`;
  }
}
