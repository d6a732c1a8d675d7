import { spawn, type ChildProcess } from "node:child_process";

// The commands hatloop runs live in their own process groups, which outlive hatloop unless someone
// kills them: on a normal exit hatloop does (kill-tree.ts), but after kill -9 nothing in hatloop
// runs any more. So a small watchdog shell, started once and detached, is told each group as it
// starts and ends; its stdin is a pipe from hatloop, and the end of that pipe (hatloop gone, for
// whatever reason) makes it kill every group it still knows. It ignores the signals a terminal or a
// process-group kill would send, so it is still there when it is needed. (A command is registered
// right after it is spawned: a kill in those first milliseconds can still leave it behind.)

const SCRIPT = [
  "trap '' INT TERM HUP QUIT",
  "groups=''",
  'while IFS= read -r line; do case "$line" in',
  '  +*) groups="$groups ${line#+}" ;;',
  '  -*) groups=$(for g in $groups; do [ "$g" = "${line#-}" ] || printf \'%s \' "$g"; done) ;;',
  "esac; done",
  'for g in $groups; do kill -KILL -"$g" 2>/dev/null; done',
].join("\n");

let reaper: ChildProcess | null = null;

function watchdog(): ChildProcess | null {
  if (reaper?.stdin?.writable) return reaper;
  try {
    reaper = spawn("sh", ["-c", SCRIPT], { stdio: ["pipe", "ignore", "ignore"], detached: true });
  } catch {
    return null;
  }
  reaper.on("error", () => (reaper = null));
  reaper.stdin!.on("error", () => (reaper = null));
  // Neither the watchdog nor its pipe may keep hatloop's event loop alive.
  reaper.unref();
  (reaper.stdin as unknown as { unref?: () => void }).unref?.();
  return reaper;
}

/** The watchdog kills this process group if hatloop dies before `forgetGroup` is called. */
export function watchGroup(pgid: number): void {
  watchdog()?.stdin?.write(`+${pgid}\n`);
}

export function forgetGroup(pgid: number): void {
  if (reaper?.stdin?.writable) reaper.stdin.write(`-${pgid}\n`);
}
