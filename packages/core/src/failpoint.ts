// Crash points, for the tests that prove every step's writes are atomic with the state they imply:
// with HATLOOP_FAILPOINT=<name>, the process kills itself with SIGKILL when it reaches that point,
// exactly as kill -9 or a power cut would (no cleanup, no finally); with <name>:block=<ms> it blocks
// its event loop that long instead, as a long GC pause or a stuck call would (no timer, no lease
// renewal runs meanwhile). Off unless the variable names the point.

export type Failpoint =
  /** The closing message of a turn that changed hats is stored; the session row is not updated yet. */
  | "after-hat-change-message"
  /** task_complete passed its gates and the closing message is stored; completion is not recorded yet. */
  | "after-completion-message"
  /** A checkpoint (after the start) is stored with its commit; the session row's headCommit is not updated yet. */
  | "after-checkpoint-row"
  /**
   * A checkpoint's git commit holds its ref locks (HEAD.lock, the branch's): git itself kills hatloop's
   * process group then (tools/src/git/commit-failpoint.ts). Needs hatloop to lead its process group,
   * as a shell's job does.
   */
  | "in-checkpoint-commit"
  /** A tool call finished and its tool.result event is written; the closing message with its result is not stored yet. */
  | "after-tool-result"
  /** `run` has made the session's row, not its worktree yet. */
  | "after-start-row"
  /** `run` has made the session's row and its worktree; the gate baseline has not run yet. */
  | "after-start-worktree";

/** HATLOOP_FAILPOINT read as `point[:action]`. */
function armed(): [point: string, action: string] {
  const [point = "", action = ""] = (process.env.HATLOOP_FAILPOINT ?? "").split(":");
  return [point, action];
}

/** Whether HATLOOP_FAILPOINT names `name`, for a failpoint that code outside this process carries out. */
export function failpointArmed(name: Failpoint): boolean {
  return armed()[0] === name;
}

export function failpoint(name: Failpoint): void {
  const [point, action] = armed();
  if (point !== name) return;
  const blockMs = /^block=(\d+)$/.exec(action)?.[1];
  if (!blockMs) {
    process.kill(process.pid, "SIGKILL");
    return;
  }
  // Blocks the thread without spinning: nothing else in this process runs, and no core is kept busy.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(blockMs));
}
