import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// One whole process, timed from outside: wall time on this clock, CPU (user + system) and peak RSS
// from GNU time (getrusage of the process and the children it waited for), so nothing is added to
// the process measured.

export const GNU_TIME = "/usr/bin/time";
/** What GNU time writes to its -o file: user and system seconds, peak RSS in KiB. */
export const GNU_TIME_FORMAT = "%U %S %M";

/** CPU and peak RSS from a file GNU time wrote with GNU_TIME_FORMAT. */
export function readGnuTime(file: string): { cpuMs: number; peakRssMb: number } {
  // GNU time prefixes "Command exited with non-zero status N" when the process failed.
  const last = readFileSync(file, "utf8").trim().split("\n").at(-1) ?? "";
  const [user, system, rssKb] = last.split(" ").map(Number);
  return { cpuMs: ((user ?? 0) + (system ?? 0)) * 1000, peakRssMb: (rssKb ?? 0) / 1024 };
}

export interface ProcessFigures {
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  code: number | null;
}

export function gnuTimeAvailable(): boolean {
  return existsSync(GNU_TIME);
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Hang guard: the process is killed after this long. */
  timeoutMs?: number;
}

export async function timedRun(
  command: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<ProcessFigures & { stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), "hatloop-bench-time-"));
  const out = join(dir, "time");
  const started = performance.now();
  const child = spawn(GNU_TIME, ["-o", out, "-f", GNU_TIME_FORMAT, command, ...args], {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (c) => resolve(c));
  });
  const wallMs = performance.now() - started;
  clearTimeout(timer);
  try {
    return { wallMs, ...readGnuTime(out), code, stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
