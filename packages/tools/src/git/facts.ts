import type { GitFacts } from "@hatloop/core";
import { execa } from "execa";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gitAt } from "./client.js";

// Facts for the handoff, read from the repository and never from the model. The working tree
// (committed, uncommitted and untracked) is compared with the base commit through a throwaway
// index, so the user's real index is never touched.

export type { GitFacts };

const MAX_COMMITS = 200;

export async function gitFacts(dir: string, baseCommit: string): Promise<GitFacts> {
  const git = gitAt(dir);
  const [branch, head] = await Promise.all([
    git.raw(["rev-parse", "--abbrev-ref", "HEAD"]).then((s) => s.trim()),
    git.raw(["rev-parse", "HEAD"]).then((s) => s.trim()),
  ]);
  const { nameStatus, numstat } = await diffWorkingTreeAgainst(dir, baseCommit);

  const modifiedFiles: string[] = [];
  const createdFiles: string[] = [];
  const deletedFiles: string[] = [];
  const fields = nameStatus.split("\0").filter((f) => f.length > 0);
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const status = fields[i]!;
    const file = fields[i + 1]!;
    if (status.startsWith("A")) createdFiles.push(file);
    else if (status.startsWith("D")) deletedFiles.push(file);
    else modifiedFiles.push(file); // M, T (type change)
  }

  let insertions = 0;
  let deletions = 0;
  let files = 0;
  for (const record of numstat.split("\0").filter((r) => r.length > 0)) {
    const [added, removed] = record.split("\t");
    files++;
    // Binary files show "-": they count as a changed file without line counts.
    insertions += Number.parseInt(added ?? "", 10) || 0;
    deletions += Number.parseInt(removed ?? "", 10) || 0;
  }

  const log = await git.raw(["log", "--reverse", `-n${MAX_COMMITS}`, "--format=%H%x1f%s", `${baseCommit}..HEAD`]);
  const commits = log
    .split("\n")
    .filter((l) => l.length > 0)
    .map((line) => {
      const [sha = "", subject = ""] = line.split("\x1f");
      return { sha, subject };
    });

  return {
    branch,
    headCommit: head,
    modifiedFiles,
    createdFiles,
    deletedFiles,
    diffstat: { filesChanged: files, insertions, deletions },
    commits,
  };
}

async function diffWorkingTreeAgainst(dir: string, baseCommit: string): Promise<{ nameStatus: string; numstat: string }> {
  const git = gitAt(dir);
  const realIndex = path.resolve(dir, (await git.raw(["rev-parse", "--git-path", "index"])).trim());
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
    const diff = (format: string) => scratchGit(["diff", "--cached", "--no-renames", "-z", format, baseCommit, "--"]);
    const [nameStatus, numstat] = await Promise.all([diff("--name-status"), diff("--numstat")]);
    return { nameStatus, numstat };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
