import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { promisify } from "node:util";
import type { SessionRecord } from "@hatloop/core";

// What a checkpoint's commit changed, read from the session's worktree on this machine: the task
// branch holds every checkpoint's commit. Null when the worktree is elsewhere (another worker's
// machine) or gone.

const run = promisify(execFile);
/** A diff larger than this is cut (a page is not the place for a vendored dependency's diff). */
const MAX_DIFF = 2_000_000;

export async function commitDiff(session: SessionRecord, commit: string): Promise<string | null> {
  const here = session.host === null || session.host === hostname();
  if (!here || !session.worktreePath || !existsSync(session.worktreePath)) return null;
  try {
    const { stdout } = await run("git", ["-C", session.worktreePath, "show", "--no-color", "--format=%h %s%n", "--patch", commit], {
      maxBuffer: MAX_DIFF * 2,
      env: { ...process.env, GIT_PAGER: "cat" },
    });
    return stdout.length > MAX_DIFF ? `${stdout.slice(0, MAX_DIFF)}\n[... cut at ${MAX_DIFF} characters]` : stdout;
  } catch {
    return null;
  }
}
