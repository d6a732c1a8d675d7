import { lstat, readlink, realpath } from "node:fs/promises";
import path from "node:path";
import { ToolError, errnoCode } from "./tool-error.js";

// Every path argument of every tool goes through `confinePath`. The check is made on real
// locations (symlinks resolved), so a link inside the worktree cannot reach outside it.

export interface ConfinedPath {
  /** Real absolute location (symlinks resolved; for a file to be created, its would-be location). */
  absolute: string;
  /** Worktree-relative posix path; "" for the worktree root. */
  relative: string;
}

export interface ConfineOptions {
  /** The path will be written: refuse anything inside a `.git` directory. */
  write?: boolean;
}

const MAX_LINK_DEPTH = 40;

export async function confinePath(worktree: string, input: string, options: ConfineOptions = {}): Promise<ConfinedPath> {
  if (input.includes("\0")) throw new ToolError(`path ${JSON.stringify(input)} contains a NUL byte`);
  const root = await realpath(worktree);
  const requested = path.resolve(root, input === "" ? "." : input);
  // Relative paths that climb out are refused as written. Absolute ones are judged by their real
  // location only, since they may name the worktree through an alias (/tmp vs /private/tmp).
  if (!path.isAbsolute(input) && isOutside(root, requested)) {
    throw new ToolError(`path ${JSON.stringify(input)} is outside the worktree`);
  }
  const absolute = await realLocation(requested, 0);
  if (isOutside(root, absolute)) {
    const how = isOutside(root, requested) ? "" : ` (through a symlink, it resolves to ${absolute})`;
    throw new ToolError(`path ${JSON.stringify(input)} is outside the worktree${how}`);
  }
  const relative = path.relative(root, absolute).split(path.sep).join("/");
  if (options.write && (hasGitSegment(relative) || hasGitSegment(path.relative(root, requested)))) {
    throw new ToolError(`path ${JSON.stringify(input)} is inside .git; git metadata must not be written directly`);
  }
  return { absolute, relative };
}

function isOutside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}

function hasGitSegment(relative: string): boolean {
  return relative.split(/[\\/]/).includes(".git");
}

/**
 * The real location of `p`: realpath when it exists; otherwise the real location of its parent
 * plus its name. Dangling symlinks are followed by hand, so writing through one cannot escape.
 */
async function realLocation(p: string, depth: number): Promise<string> {
  if (depth > MAX_LINK_DEPTH) throw new ToolError(`too many levels of symbolic links at ${p}`);
  try {
    return await realpath(p);
  } catch (error) {
    const code = errnoCode(error);
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
  }
  const parent = path.dirname(p);
  if (parent === p) return p;
  const realParent = await realLocation(parent, depth);
  const stats = await lstat(p).catch(() => undefined);
  if (stats?.isSymbolicLink()) {
    const target = await readlink(p);
    return realLocation(path.resolve(realParent, target), depth + 1);
  }
  return path.join(realParent, path.basename(p));
}
