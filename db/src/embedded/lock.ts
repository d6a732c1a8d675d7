import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// A lock on a PGlite data directory held by one live process. mkdir is atomic, so exactly one
// process creates the lock directory; the owner's pid inside it tells the others whether it is still
// alive. A lock left by a killed process is broken at once (no waiting for a timeout), under a second
// atomic "breaker" directory so that two processes never break the same lock and then both own it.
// The owner's start time is kept too: after a kill -9 its pid can be reused by an unrelated process,
// which must not pass for the holder (every later process would wait for it, then fail).

export interface LockOwner {
  pid: number;
  /** Start time of the process (Linux: clock ticks after boot, /proc/PID/stat), when known. */
  started?: number | null;
  socket: string;
  token: string;
  since: string;
  /** A warm holder (warm-holder.ts): how long it stays after its last client leaves. */
  warmForMs?: number;
}

export type Acquired = { kind: "acquired"; release: () => void } | { kind: "held"; owner: LockOwner | null };

export function acquireLock(lockDir: string, owner: LockOwner): Acquired {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      mkdirSync(lockDir);
    } catch (error) {
      if (!isCode(error, "EEXIST")) throw error;
      const current = readOwner(lockDir);
      if (current && isAlive(current)) return { kind: "held", owner: current };
      if (!current && ageMs(lockDir) < 2_000) return { kind: "held", owner: null }; // being created right now
      breakStale(lockDir, current);
      continue;
    }
    const file = join(lockDir, "owner.json");
    writeFileSync(`${file}.tmp`, JSON.stringify(owner));
    renameSync(`${file}.tmp`, file);
    return { kind: "acquired", release: () => releaseIfOwner(lockDir, owner.token) };
  }
  return { kind: "held", owner: readOwner(lockDir) };
}

export function readOwner(lockDir: string): LockOwner | null {
  try {
    return JSON.parse(readFileSync(join(lockDir, "owner.json"), "utf8")) as LockOwner;
  } catch {
    return null;
  }
}

export function isAlive(owner: Pick<LockOwner, "pid" | "started">): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    return isCode(error, "EPERM");
  }
  const started = processStart(owner.pid);
  return owner.started == null || started === null || started === owner.started;
}

/** Field 22 of /proc/PID/stat (after the command, which may hold spaces, in parentheses); null off Linux. */
export function processStart(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  } catch {
    return null;
  }
}

function breakStale(lockDir: string, seen: LockOwner | null): void {
  const breaker = `${lockDir}.break`;
  try {
    mkdirSync(breaker);
  } catch (error) {
    if (!isCode(error, "EEXIST")) throw error;
    // Someone else is breaking it; a breaker left by a crash mid-break is cleared after a while.
    if (ageMs(breaker) > 10_000) rmSync(breaker, { recursive: true, force: true });
    return;
  }
  try {
    const now = readOwner(lockDir);
    const unchanged = now?.token === seen?.token;
    if (unchanged && (!now || !isAlive(now))) rmSync(lockDir, { recursive: true, force: true });
  } finally {
    rmSync(breaker, { recursive: true, force: true });
  }
}

function releaseIfOwner(lockDir: string, token: string): void {
  if (readOwner(lockDir)?.token === token) rmSync(lockDir, { recursive: true, force: true });
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === code;
}
