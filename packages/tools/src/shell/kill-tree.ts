import { forgetGroup, watchGroup } from "./reaper.js";

// Commands run in their own process group (detached), so one signal reaches the shell and every
// process it started. Only processes that start a new session (setsid) can escape.

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // the group is already gone
  }
}

/** SIGTERM the group, then SIGKILL whatever is left after `graceMs`. */
export function killTree(pid: number | undefined, graceMs: number): void {
  if (!signalGroup(pid, "SIGTERM")) return;
  const timer = setTimeout(() => signalGroup(pid, "SIGKILL"), graceMs);
  timer.unref();
}

/**
 * Detached groups outlive hatloop unless someone kills them: remember them until they are done,
 * and kill what is left when the process exits (Ctrl-C pauses the loop and exits).
 */
export function trackGroup(pid: number | undefined): () => void {
  if (pid === undefined) return () => undefined;
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const group of liveGroups) signalGroup(group, "SIGKILL");
    });
  }
  liveGroups.add(pid);
  watchGroup(pid);
  return () => {
    liveGroups.delete(pid);
    forgetGroup(pid);
  };
}
