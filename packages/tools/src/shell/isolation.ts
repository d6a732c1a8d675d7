import { spawnSync } from "node:child_process";

// The agent's commands run as the user, and every process of a user can read the environment and
// command line of the user's other processes (/proc/<pid>/environ, cmdline): hatloop's API key and a
// --db password among them. In a PID namespace of their own, with their own /proc, the commands see
// only their own processes. It needs util-linux's unshare and unprivileged user namespaces (most
// Linux distributions); where either is missing, commands run as before.

const UNSHARE = ["--user", "--map-root-user", "--pid", "--fork", "--mount-proc", "--kill-child"];

let available: boolean | undefined;

/** Whether this machine can run a command in a PID namespace of its own (probed once). */
export function isolationAvailable(): boolean {
  if (available === undefined) {
    const probe = process.platform === "linux" ? spawnSync("unshare", [...UNSHARE, "true"], { stdio: "ignore", timeout: 5_000 }) : null;
    available = probe?.status === 0;
  }
  return available;
}

/** The program and arguments that run `argv` isolated, or `argv` itself where isolation is not available. */
export function isolated(argv: [string, ...string[]]): [string, ...string[]] {
  return isolationAvailable() ? ["unshare", ...UNSHARE, ...argv] : argv;
}
