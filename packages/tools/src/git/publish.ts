import { execa } from "execa";
import { WorkspaceError } from "./workspace-error.js";

// Publishing a finished task branch (`--pr`): what the remote is and where it points, and the push.
// git runs non-interactively: a credential prompt would hang a headless run or garble the TUI.

const GIT_TIMEOUT_MS = 120_000;
const quietEnv = { GIT_TERMINAL_PROMPT: "0", GCM_INTERACTIVE: "never" };

const git = (dir: string, args: string[]) =>
  execa("git", args, { cwd: dir, env: quietEnv, reject: false, timeout: GIT_TIMEOUT_MS, stdin: "ignore" });

/** The remote's configured URL as written (not rewritten by url.*.insteadOf); null when there is no such remote. */
export async function remoteUrl(dir: string, remote: string): Promise<string | null> {
  const r = await git(dir, ["config", "--get", `remote.${remote}.url`]);
  return r.exitCode === 0 && r.stdout.trim() ? r.stdout.trim() : null;
}

/** The branch the remote's HEAD names (its default branch); null when it cannot be read. */
export async function remoteDefaultBranch(dir: string, remote: string): Promise<string | null> {
  const r = await git(dir, ["ls-remote", "--symref", remote, "HEAD"]);
  return r.exitCode === 0 ? (/^ref: refs\/heads\/(\S+)\s+HEAD$/m.exec(r.stdout)?.[1] ?? null) : null;
}

/** Pushes `branch` to the same name on `remote` and makes it the branch's upstream. */
export async function pushBranch(dir: string, remote: string, branch: string): Promise<void> {
  const r = await git(dir, ["push", "--quiet", "--set-upstream", remote, `refs/heads/${branch}:refs/heads/${branch}`]);
  if (r.exitCode === 0) return;
  const why = r.timedOut ? `no answer in ${GIT_TIMEOUT_MS / 1000}s` : firstLine(r.stderr) || `git exited with ${r.exitCode}`;
  throw new WorkspaceError("git_failed", `could not push ${branch} to ${remote}: ${why}`);
}

function firstLine(text: string): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.find((l) => /^(fatal|error|remote):/.test(l)) ?? lines[0] ?? "";
}
