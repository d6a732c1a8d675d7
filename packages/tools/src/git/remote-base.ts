import { existsSync } from "node:fs";
import { gitAt, gitErrorLine } from "./client.js";
import { WorkspaceError } from "./workspace-error.js";

// The commit a fleet session starts from, read from its remote at submit: what the remote's HEAD
// names, or a branch asked for by name. A failure says which way it failed, since each has its own
// remedy: no commits at all, a HEAD naming a branch that was never pushed (a bare repository made
// with git's default "master", then pushed "main"), or no such branch.

/** Branch names listed in an error, at most. */
const LISTED = 8;

/** The commit `branch` (default: the branch HEAD names) is at in the repository at `url` (a URL or a path). */
export async function remoteCommit(url: string, branch?: string): Promise<string> {
  const out = await gitAt(process.cwd())
    .raw(["ls-remote", "--", url, "HEAD", "refs/heads/*"])
    .catch((error: unknown) => {
      throw new WorkspaceError("git_failed", `cannot read the repository ${url}: ${gitErrorLine(error)}`);
    });
  const refs = new Map<string, string>();
  for (const line of out.split("\n")) {
    const [sha, ref] = line.trim().split(/\s+/);
    if (sha && ref) refs.set(ref, sha);
  }
  const branches = [...refs.keys()].filter((r) => r.startsWith("refs/heads/")).map((r) => r.slice("refs/heads/".length));
  if (branch !== undefined) {
    const sha = refs.get(`refs/heads/${branch}`);
    if (!sha) throw new WorkspaceError("no_such_branch", `the repository ${url} has no branch ${branch} (${listOf(branches)})`);
    return sha;
  }
  const head = refs.get("HEAD");
  if (head) return head;
  if (!branches.length) throw new WorkspaceError("no_commits", `the repository ${url} has no commits yet; push a first commit to it`);
  const missing = await localHeadBranch(url);
  const names = missing ? `the branch ${missing}, which does not exist` : "a branch that does not exist";
  throw new WorkspaceError("dangling_head", `the repository ${url}'s HEAD names ${names} (${listOf(branches)})`);
}

function listOf(branches: string[]): string {
  if (!branches.length) return "it has no branches";
  const sorted = [...branches].sort();
  const more = sorted.length > LISTED ? `, and ${sorted.length - LISTED} more` : "";
  return `its branches: ${sorted.slice(0, LISTED).join(", ")}${more}`;
}

/**
 * The branch HEAD names in a repository on this machine; null for a URL, which ls-remote cannot
 * tell (it leaves a HEAD naming a missing branch out of its answer).
 */
async function localHeadBranch(url: string): Promise<string | null> {
  if (!existsSync(url)) return null;
  return gitAt(url)
    .raw(["symbolic-ref", "--quiet", "--short", "HEAD"])
    .then(
      (name) => name.trim() || null,
      () => null,
    );
}
