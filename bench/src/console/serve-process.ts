import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { HATLOOP_BIN } from "../fleet/processes.js";

// `hatloop serve` as a real process (the built binary), on a port the system picks, with a token of
// the bench's own: the browser logs in with it, the plain SSE clients send it as a bearer token.

/** Start-up guard only: a server that has not said where it serves after this long is given up on. */
const START_MS = 60_000;

export interface ServeProcess {
  /** http://127.0.0.1:PORT */
  base: string;
  token: string;
  pid: number;
  stderr(): string;
  /** Throws when the server has exited (with what it said on stderr). */
  assertRunning(): void;
  stop(): Promise<void>;
}

export async function startServe(db: string, env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const token = randomBytes(24).toString("hex");
  const child = spawn(process.execPath, [HATLOOP_BIN, "--db", db, "serve", "--port", "0", "--token", token], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hatloop serve said nothing for ${START_MS / 1000} s; stderr: ${stderr}`)), START_MS);
    child.stdout.on("data", (d) => {
      stdout += d;
      const found = /serving on (http:\/\/[^/\s]+)\//.exec(stdout);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`hatloop serve exited (${code}) before serving; stderr: ${stderr.trim().slice(-2_000)}`));
    });
  });
  return {
    base,
    token,
    pid: child.pid!,
    stderr: () => stderr,
    assertRunning() {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`hatloop serve exited (${child.exitCode ?? child.signalCode}); stderr: ${stderr.trim().slice(-2_000)}`);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
