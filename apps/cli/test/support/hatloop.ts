import { spawn } from "node:child_process";

const bin = new URL("../../dist/bin.js", import.meta.url).pathname;

/**
 * How the binary names itself in its hints ("continue with: ... resume ID") when the tests run it:
 * `hatloop` is not on their PATH, so by the command that started it (src/invocation.ts).
 */
export const HATLOOP = `node ${bin}`;
/** HATLOOP in a regular expression. */
export const HATLOOP_RE = HATLOOP.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * How long a helper waits before it gives up on a process or an event: only so that a hung one still
 * ends, with its output, before the runner's ceiling (vitest.shared.ts). Never a speed claim: those
 * belong in `pnpm bench`.
 */
export const HUNG_MS = 5 * 60_000;

/**
 * A test process's environment: clean, plus `env`. The embedded database's warm holder (database.linger)
 * is off unless a test turns it on: hundreds of test data directories would each keep one for minutes.
 */
function processEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: env.HATLOOP_HOME ?? process.env.HOME, HATLOOP_DATABASE__LINGER: "0", ...env };
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `hatloop` binary with a clean environment plus `env`; with `ownGroup`, as the leader
 * of a process group of its own, as a shell runs a job.
 */
export function runHatloop(
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; stdin?: string; ownGroup?: boolean } = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      env: processEnv(env),
      detached: options.ownGroup ?? false,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    if (options.stdin !== undefined) child.stdin.end(options.stdin);
    const timer = setTimeout(() => child.kill("SIGKILL"), HUNG_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface Live {
  /** Resolves with the first JSON event printed (--json) that matches. */
  waitFor(match: (event: { type: string; iteration: number; data: Record<string, unknown> }) => boolean): Promise<void>;
  kill(signal: NodeJS.Signals): void;
  done: Promise<Ran>;
}

/** Starts the binary and lets the test react to its JSON events while it runs. */
export function startHatloop(args: string[], env: Record<string, string>): Live {
  const child = spawn(process.execPath, [bin, ...args], {
    env: processEnv(env),
  });
  let stdout = "";
  let stderr = "";
  let pending = "";
  const events: Array<{ type: string; iteration: number; data: Record<string, unknown> }> = [];
  const waiters: Array<() => void> = [];
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
    pending += d.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line.startsWith("{")) events.push(JSON.parse(line));
    waiters.splice(0).forEach((w) => w());
  });
  child.stderr.on("data", (d) => (stderr += d));
  const done = new Promise<Ran>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return {
    async waitFor(match) {
      const deadline = Date.now() + HUNG_MS;
      while (!events.some(match)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for an event; stderr: ${stderr}`);
        await Promise.race([new Promise<void>((r) => waiters.push(r)), new Promise((r) => setTimeout(r, 200))]);
      }
    },
    kill: (signal) => child.kill(signal),
    done,
  };
}
