import { execa } from "execa";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { commitConfig, gitAt } from "./client.js";

// An in-place session writes into the user's own checkout. When that checkout has uncommitted work
// (allowed only when the user says so), the work is kept first as a stash-shaped commit under a ref
// of hatloop's own — the user's stash list is left alone — so `git stash apply <ref>` brings back the
// tracked changes, the index and the untracked files.

export function dirtyStateRef(sessionShortId: string): string {
  return `refs/hatloop/dirty/${sessionShortId}`;
}

/** Keeps the checkout's uncommitted state under `ref`; false when there was nothing to keep. */
export async function keepDirtyState(dir: string, ref: string): Promise<boolean> {
  const git = gitAt(dir, { config: await commitConfig(dir) });
  const message = `hatloop: uncommitted changes before the session (${ref})`;
  const untracked = (await git.raw(["ls-files", "--others", "--exclude-standard", "-z"])).split("\0").filter(Boolean);
  let stash = (await git.raw(["stash", "create", message])).trim();
  if (stash === "" && untracked.length === 0) return false;
  if (untracked.length > 0) {
    // `git stash create` leaves untracked files out; a stash keeps them in a third parent.
    const head = (await git.raw(["rev-parse", "HEAD"])).trim();
    const untrackedCommit = (await git.raw(["commit-tree", await untrackedTree(dir, untracked), "-m", `untracked files of ${ref}`])).trim();
    const index =
      stash === "" ? (await git.raw(["commit-tree", `${head}^{tree}`, "-p", head, "-m", `index of ${ref}`])).trim() : `${stash}^2`;
    const tree = stash === "" ? `${head}^{tree}` : `${stash}^{tree}`;
    stash = (await git.raw(["commit-tree", tree, "-p", head, "-p", index, "-p", untrackedCommit, "-m", message])).trim();
  }
  await git.raw(["update-ref", "-m", message, ref, stash]);
  return true;
}

/** Whether `ref` exists in the repository at `dir` (an unreadable repository counts as no). */
export async function hasRef(dir: string, ref: string): Promise<boolean> {
  return gitAt(dir)
    .raw(["rev-parse", "--verify", "--quiet", ref])
    .then(
      (out) => out.trim() !== "",
      () => false,
    );
}

export async function deleteRef(dir: string, ref: string): Promise<void> {
  await gitAt(dir).raw(["update-ref", "-d", ref]);
}

/** A tree of the untracked files alone, written through a throwaway index (the real one is untouched). */
async function untrackedTree(dir: string, files: string[]): Promise<string> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), "hatloop-dirty-"));
  // execa rather than simple-git: simple-git refuses a custom environment (see facts.ts).
  const env = { GIT_INDEX_FILE: path.join(scratch, "index") };
  try {
    await execa("git", ["add", "--pathspec-from-file=-", "--pathspec-file-nul"], { cwd: dir, env, input: `${files.join("\0")}\0` });
    return (await execa("git", ["write-tree"], { cwd: dir, env, stdin: "ignore" })).stdout.trim();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
