import { spawn } from "node:child_process";

const bin = new URL("../../dist/bin.js", import.meta.url).pathname;

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `hatloop` binary with a clean environment plus `env`. */
export function runHatloop(args: string[], env: Record<string, string>, options: { timeoutMs?: number; cwd?: string } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, HOME: env.HATLOOP_HOME ?? process.env.HOME, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
