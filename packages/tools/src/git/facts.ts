import type { GitFacts } from "@hatloop/core";
import { execa } from "execa";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gitAt } from "./client.js";

// Facts for the handoff, and the patch for the grader, read from the repository and never from the
// model. The working tree (committed, uncommitted and untracked) is compared with the base commit
// through a throwaway index, so the user's real index is never touched.

export type { GitFacts };

const MAX_COMMITS = 200;

/**
 * The handoff's facts: the work since `baseCommit`. With `cleanAt`, the worktree is known to be that
 * commit's tree (commitAll just made it, as every checkpoint does), so the two commits are compared
 * instead of the working tree through a scratch index: what lies between two commits never changes,
 * and is read once per pair (a checkpoint where nothing changed spawns one git instead of four).
 */
export async function gitFacts(dir: string, baseCommit: string, cleanAt?: string): Promise<GitFacts> {
  const git = gitAt(dir);
  if (cleanAt !== undefined) {
    const branch = (await git.raw(["rev-parse", "--abbrev-ref", "HEAD"])).trim();
    return { branch, headCommit: cleanAt, ...(await between(dir, baseCommit, cleanAt)) };
  }
  // One process for three answers: rev-parse prints them in the order asked.
  const [indexPath = "", head = "", branch = ""] = (
    await git.raw(["rev-parse", "--git-path", "index", "HEAD", "--abbrev-ref", "HEAD"])
  ).split("\n");
  const changes = parseRawNumstat(
    await diffWorkingTreeAgainst(dir, path.resolve(dir, indexPath), baseCommit, ["-z", "--raw", "--numstat"]),
  );
  return { branch, headCommit: head, ...changes, commits: await commitsBetween(dir, baseCommit, head) };
}

type Between = Omit<GitFacts, "branch" | "headCommit">;

/** What lies between two commits, by directory and pair; the newest few pairs are kept. */
const known = new Map<string, Promise<Between>>();

function between(dir: string, baseCommit: string, commit: string): Promise<Between> {
  if (commit === baseCommit) return Promise.resolve({ ...parseRawNumstat(""), commits: [] });
  const key = `${dir}\0${baseCommit}\0${commit}`;
  let found = known.get(key);
  if (!found) {
    found = (async () => {
      const diff = await gitAt(dir).raw(["diff", "--no-renames", "-z", "--raw", "--numstat", baseCommit, commit, "--"]);
      return { ...parseRawNumstat(diff), commits: await commitsBetween(dir, baseCommit, commit) };
    })();
    // A failure is not kept: the next checkpoint asks again.
    found.catch(() => known.delete(key));
    known.set(key, found);
    if (known.size > 16) known.delete(known.keys().next().value!);
  }
  return found;
}

/** The commits after `baseCommit` up to `head`, oldest first (none asked for when they are the same). */
async function commitsBetween(dir: string, baseCommit: string, head: string): Promise<GitFacts["commits"]> {
  if (head === baseCommit) return [];
  const log = await gitAt(dir).raw(["log", "--reverse", `-n${MAX_COMMITS}`, "--format=%H%x1f%s", `${baseCommit}..${head}`]);
  return log
    .split("\n")
    .filter((l) => l.length > 0)
    .map((line) => {
      const [sha = "", subject = ""] = line.split("\x1f");
      return { sha, subject };
    });
}

/**
 * `git diff --raw --numstat -z` (no renames): each change once as `:modes shas STATUS\0path\0`,
 * then each again as `added\tdeleted\tpath\0` ("-" for a binary file's counts).
 */
function parseRawNumstat(out: string): Pick<GitFacts, "modifiedFiles" | "createdFiles" | "deletedFiles" | "diffstat"> {
  const modifiedFiles: string[] = [];
  const createdFiles: string[] = [];
  const deletedFiles: string[] = [];
  const diffstat = { filesChanged: 0, insertions: 0, deletions: 0 };
  const fields = out.split("\0");
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.startsWith(":")) {
      const status = field.split(" ").at(-1) ?? "";
      const file = fields[++i] ?? "";
      if (status.startsWith("A")) createdFiles.push(file);
      else if (status.startsWith("D")) deletedFiles.push(file);
      else modifiedFiles.push(file); // M, T (type change)
    } else if (field.length > 0) {
      const [added, removed] = field.split("\t");
      diffstat.filesChanged++;
      // Binary files show "-": they count as a changed file without line counts.
      diffstat.insertions += Number.parseInt(added ?? "", 10) || 0;
      diffstat.deletions += Number.parseInt(removed ?? "", 10) || 0;
    }
  }
  return { modifiedFiles, createdFiles, deletedFiles, diffstat };
}

/**
 * The patch of the working tree (committed, uncommitted and untracked) against the base commit: what
 * the session changed, for the grader (core's loop/grading.ts). Cut at `maxChars`, said so at the end.
 */
export async function worktreeDiff(dir: string, baseCommit: string, maxChars: number): Promise<string> {
  const indexPath = (await gitAt(dir).raw(["rev-parse", "--git-path", "index"])).trim();
  const patch = await diffWorkingTreeAgainst(dir, path.resolve(dir, indexPath), baseCommit, ["--no-color", "--no-ext-diff"]);
  return patch.length > maxChars ? `${patch.slice(0, maxChars)}\n[... the diff is cut here: ${patch.length} characters in all]` : patch;
}

async function diffWorkingTreeAgainst(dir: string, realIndex: string, baseCommit: string, format: string[]): Promise<string> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), "hatloop-facts-"));
  const index = path.join(scratch, "index");
  try {
    // Starting from a copy keeps git's stat cache, so unchanged files are not re-hashed.
    await copyFile(realIndex, index).catch(() => undefined);
    // execa rather than simple-git here: simple-git refuses any custom environment that holds
    // common variables (EDITOR, PAGER, GIT_CONFIG_GLOBAL ...), and the user's must pass through.
    const scratchGit = async (args: string[]) =>
      (await execa("git", args, { cwd: dir, env: { GIT_INDEX_FILE: index }, stdin: "ignore", stripFinalNewline: false })).stdout;
    await scratchGit(["add", "--all"]);
    return await scratchGit(["diff", "--cached", "--no-renames", ...format, baseCommit, "--"]);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
