import { estimateTokens, redactSecrets } from "@hatloop/context";
import type { HatloopConfig } from "@hatloop/core";
import { contextWindowOf } from "@hatloop/model";
import { findRepository, hasChangesSince, inPlaceWorkspace, WorkspaceError } from "@hatloop/tools";
import { CliError, usageError } from "../errors.js";
import { bundledHatsDir, repoHatsDir } from "./paths.js";
import { loadHats } from "./prompt-files.js";

// Everything a start needs is checked here, before anything is created (no worktree, branch,
// database or row): the task and its size, the repository, the hat. A start that fails after this
// is rolled back by startSession.

/** Without a configured window, the guard manages at most this much context (cost grows with it). */
const DEFAULT_WORKING_WINDOW = 200_000;

export interface StartRequest {
  task: string;
  repoDir: string;
  inPlace: boolean;
  /** In place: work in a checkout with uncommitted changes (they are kept under a ref first). */
  allowDirty: boolean;
  config: HatloopConfig;
  /** Checked by chooseModel: a scenario that parses, or an API key. */
  modelId: string;
}

export interface SessionPlan extends StartRequest {
  /** Trimmed and redacted: secrets pasted into a task are neither stored nor sent. */
  task: string;
  repoRoot: string;
  contextWindow: number;
}

export async function planSession(request: StartRequest): Promise<SessionPlan> {
  if (request.allowDirty && !request.inPlace)
    throw usageError("--allow-dirty goes with --in-place (a worktree never touches your checkout)");
  const task = redactSecrets(request.task.trim());
  if (!task) throw usageError("the task is empty");
  const contextWindow = request.config.context.window ?? Math.min(contextWindowOf(request.modelId), DEFAULT_WORKING_WINDOW);
  checkTaskSize(task, contextWindow);
  const { repoRoot, baseCommit } = await asCliError(request.inPlace ? inPlaceWorkspace(request.repoDir) : findRepository(request.repoDir));
  // The agent's writes would replace the user's uncommitted lines with no copy kept.
  if (request.inPlace && !request.allowDirty && (await hasChangesSince(repoRoot, baseCommit))) {
    throw usageError(
      `the checkout at ${repoRoot} has uncommitted changes; commit or stash them first, or pass --allow-dirty (hatloop then keeps a copy under refs/hatloop/dirty/<id> before the first write)`,
    );
  }
  const hats = loadHats([bundledHatsDir, repoHatsDir(repoRoot)]);
  const hat = request.config.hat;
  if (!hats.has(hat)) throw usageError(`unknown hat "${hat}" (hats: ${[...hats.keys()].sort().join(", ")})`);
  return { ...request, task, repoRoot, contextWindow };
}

/**
 * The task is pinned in the live context for the whole session: past half the working window it
 * would leave the loop too little room to work, and compaction could never make room.
 */
export function checkTaskSize(task: string, contextWindow: number): void {
  const tokens = estimateTokens([{ role: "user", content: task }]);
  if (tokens <= contextWindow / 2) return;
  const n = (x: number) => x.toLocaleString("en-US");
  throw usageError(
    `the task is about ${n(tokens)} tokens, more than half of the session's ${n(contextWindow)}-token working window; ` +
      "shorten it and put the details in a file in the repository for the agent to read (or raise context.window)",
  );
}

/** Bad input (not a repository, no commits, a name taken) is a usage error; git itself failing is not. */
export async function asCliError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof WorkspaceError) throw error.code === "git_failed" ? new CliError(error.message) : usageError(error.message);
    throw error;
  }
}
