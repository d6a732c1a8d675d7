import { spawn, type ChildProcess, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { createInterface } from "node:readline";

// fixtures/db-child.mjs as a process of its own (another hatloop opening the same embedded
// database): its JSON lines are read as they come, and a test waits for the first with a key.

const child = new URL("../fixtures/db-child.mjs", import.meta.url).pathname;

export interface DbChild {
  proc: ChildProcessByStdio<Writable, Readable, null>;
  /** The first line that has `key`, once the child has printed it. */
  next(key: string): Promise<Record<string, unknown>>;
  /** The child's exit code. */
  exited: Promise<number | null>;
}

/** Starts the child with `args` (data directory, session, action...); `started` collects it for the test's cleanup. */
export function startDbChild(args: string[], started: ChildProcess[]): DbChild {
  const proc = spawn(process.execPath, [child, ...args], { stdio: ["pipe", "pipe", "inherit"] });
  started.push(proc);
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: proc.stdout }).on("line", (line) => {
    lines.push(JSON.parse(line) as Record<string, unknown>);
    waiters.splice(0).forEach((w) => w());
  });
  const next = async (key: string) => {
    for (;;) {
      const found = lines.find((l) => key in l);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  return { proc, next, exited };
}
