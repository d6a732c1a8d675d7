import { existsSync, readFileSync } from "node:fs";
import { createConnection } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

// The warm holder a short command leaves behind (db/src/embedded/warm-holder.ts): the bench stops it
// to measure what the first command after it has gone pays, and before a row that needs the
// directory held by another process.

const ownerFile = (dataDir: string): string => `${dataDir}.lock/owner.json`;

/**
 * Stops whoever holds `dataDir` (SIGTERM, as the holder's linger would) and waits until the lock is
 * gone. `appearing`: a command just exited and its warm holder may still be starting: wait for it.
 */
export async function stopWarmHolder(dataDir: string, { appearing = false } = {}): Promise<void> {
  const file = ownerFile(dataDir);
  for (let waited = 0; appearing && !existsSync(file) && waited < 5_000; waited += 20) await sleep(20);
  if (!existsSync(file)) return;
  const { pid } = JSON.parse(readFileSync(file, "utf8")) as { pid: number };
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    // Gone already; its lock is broken by the next opener.
    return;
  }
  for (let waited = 0; existsSync(file) && waited < 30_000; waited += 20) await sleep(20);
}

/** What the warm holder of `dataDir` costs, read from /proc: its CPU so far and its memory. */
export interface HolderFigures {
  pid: number;
  cpuMs: number;
  rssMb: number;
  peakRssMb: number;
}

/** Waits until a warm holder serves `dataDir` (its socket answers), then reads its figures. */
export async function holderFigures(dataDir: string): Promise<HolderFigures> {
  const file = ownerFile(dataDir);
  for (let waited = 0; !existsSync(file); waited += 20) {
    if (waited > 10_000) throw new Error(`no warm holder took ${dataDir}`);
    await sleep(20);
  }
  const { pid, socket } = JSON.parse(readFileSync(file, "utf8")) as { pid: number; socket: string };
  for (let waited = 0; !(await answers(socket)); waited += 20) {
    if (waited > 30_000) throw new Error(`the warm holder of ${dataDir} does not answer`);
    await sleep(20);
  }
  return procFigures(pid);
}

/** CPU (user + system) and resident memory of a live process, from /proc. */
export function procFigures(pid: number): HolderFigures {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
  return { pid, cpuMs: (ticks * 1000) / CLOCK_TICKS, rssMb: kb("VmRSS") / 1024, peakRssMb: kb("VmHWM") / 1024 };
}

/** Linux's USER_HZ, what /proc counts CPU time in (100 on every architecture Node runs on). */
const CLOCK_TICKS = 100;

function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const connection = createConnection(socket);
    connection.once("connect", () => {
      connection.destroy();
      resolve(true);
    });
    connection.once("error", () => resolve(false));
  });
}
