// Commands run in their own process group (detached), so one signal reaches the shell and every
// process it started. Only processes that start a new session (setsid) can escape.

export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): boolean {
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
