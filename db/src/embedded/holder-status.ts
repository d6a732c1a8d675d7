import { readFileSync } from "node:fs";
import { isAlive, readOwner } from "./lock.js";

// Who holds an embedded database right now, read from its lock without opening it (`hatloop db
// status`): so the warm holder a short command leaves behind is never a hidden process.

export interface HolderStatus {
  pid: number;
  /** When it took the directory (ISO 8601). */
  since: string;
  /** A warm holder: how long it stays after its last client leaves; absent for a run, a worker, a watcher. */
  warmForMs?: number;
  /** Resident memory, MiB (Linux: /proc); null where it cannot be read. */
  rssMb: number | null;
}

/** The live process holding `dataDir`, or null when it is free. */
export function holderOf(dataDir: string): HolderStatus | null {
  const owner = readOwner(`${dataDir}.lock`);
  if (!owner || !isAlive(owner)) return null;
  return {
    pid: owner.pid,
    since: owner.since,
    ...(owner.warmForMs === undefined ? {} : { warmForMs: owner.warmForMs }),
    rssMb: residentMb(owner.pid),
  };
}

function residentMb(pid: number): number | null {
  try {
    const kb = /^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? null : Math.round(Number(kb) / 1024);
  } catch {
    return null;
  }
}
