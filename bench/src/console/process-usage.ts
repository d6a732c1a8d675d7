import { readFileSync } from "node:fs";

// Another process's CPU time and resident memory, read from /proc (Linux): the console server is a
// process of its own, so what it costs is what its kernel accounting says, not what this one guesses.

/** Kernel clock ticks per second (USER_HZ): 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

/** User + system CPU time the process has used so far, ms. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

/** Resident set size now, MiB. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

export interface UsageWindow {
  /** CPU used over the window, as a share of one core (100 = one core busy throughout). */
  cpuPct: number;
  cpuMs: number;
  wallMs: number;
  rssMeanMb: number;
  rssMaxMb: number;
}

/** Samples a process's memory every `everyMs` from now until `stop()`, and its CPU over that window. */
export function watchUsage(pid: number, everyMs = 250): { stop(): UsageWindow } {
  const startedAt = performance.now();
  const startCpu = cpuMs(pid);
  const samples: number[] = [rssMb(pid)];
  // A process that has gone reads as nothing more (its exit is the caller's to report).
  const timer = setInterval(() => {
    try {
      samples.push(rssMb(pid));
    } catch {
      clearInterval(timer);
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      const wallMs = performance.now() - startedAt;
      const used = cpuMs(pid) - startCpu;
      return {
        cpuPct: (used / wallMs) * 100,
        cpuMs: used,
        wallMs,
        rssMeanMb: samples.reduce((a, b) => a + b, 0) / samples.length,
        rssMaxMb: Math.max(...samples),
      };
    },
  };
}
