import { execa } from "execa";
import { readdir } from "node:fs/promises";
import path from "node:path";

// The files an agent should see: what git tracks plus untracked files that are not ignored,
// never .git or node_modules. Outside a git repository, a plain walk with the same exclusions.

const NEVER_LISTED = new Set([".git", "node_modules"]);
const WALK_LIMIT = 100_000;

/**
 * Files under `dirAbsolute` (which must be inside `rootAbsolute`), as sorted root-relative posix
 * paths.
 */
export async function listWorktreeFiles(rootAbsolute: string, dirAbsolute: string, signal?: AbortSignal): Promise<string[]> {
  const prefix = path.relative(rootAbsolute, dirAbsolute).split(path.sep).join("/");
  const fromGit = await gitListing(dirAbsolute, signal);
  const relativeToDir = fromGit ?? (await walk(dirAbsolute, signal));
  const files = relativeToDir
    .filter((p) => !p.split("/").some((segment) => NEVER_LISTED.has(segment)))
    .map((p) => (prefix === "" ? p : `${prefix}/${p}`));
  return [...new Set(files)].sort();
}

async function gitListing(cwd: string, signal?: AbortSignal): Promise<string[] | undefined> {
  const run = (args: string[]) =>
    execa("git", ["-c", "core.quotePath=false", ...args], { cwd, reject: false, cancelSignal: signal, stdin: "ignore" });
  const listed = await run(["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
  if (listed.exitCode !== 0) return undefined; // not a repository: fall back to walking
  const deleted = await run(["ls-files", "-z", "--deleted"]);
  const gone = new Set(splitNul(deleted.exitCode === 0 ? deleted.stdout : ""));
  return splitNul(listed.stdout).filter((p) => !gone.has(p));
}

function splitNul(text: string): string[] {
  return text.split("\0").filter((p) => p.length > 0);
}

async function walk(dir: string, signal?: AbortSignal): Promise<string[]> {
  const out: string[] = [];
  const pending = [""];
  while (pending.length > 0 && out.length < WALK_LIMIT) {
    signal?.throwIfAborted();
    const relDir = pending.pop()!;
    const entries = await readdir(path.join(dir, relDir), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (NEVER_LISTED.has(entry.name)) continue;
      const rel = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
      // Symlinked directories are listed as entries, not followed: they may lead outside.
      if (entry.isDirectory()) pending.push(rel);
      else out.push(rel);
    }
  }
  return out;
}
