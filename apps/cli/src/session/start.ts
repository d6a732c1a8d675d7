import { randomUUID } from "node:crypto";
import { redactSecrets } from "@hatloop/context";
import { loadHats, type HatloopConfig, type SessionRecord, type Store } from "@hatloop/core";
import { contextWindowOf } from "@hatloop/model";
import { createTaskWorktree, hasChangesSince, inPlaceWorkspace, WorkspaceError, type TaskWorkspace } from "@hatloop/tools";
import { CliError, usageError } from "../errors.js";
import { baselineFor, gateCommands } from "./gates.js";
import { bundledHatsDir, repoHatsDir } from "./paths.js";

/** Without a configured window, the guard manages at most this much context (cost grows with it). */
export const DEFAULT_WORKING_WINDOW = 200_000;

export interface StartOptions {
  task: string;
  repoDir: string;
  inPlace: boolean;
  config: HatloopConfig;
  modelId: string;
  store: Store;
  /** Told what is happening while the baseline runs (it can take a while on big projects). */
  progress?: (line: string) => void;
}

/** Creates the workspace (a worktree on a new branch, or the checkout itself) and the session row. */
export async function startSession(options: StartOptions): Promise<SessionRecord> {
  const { config, store } = options;
  // Secrets pasted into a task are not kept: the task is stored and sent to the model redacted.
  const task = redactSecrets(options.task.trim());
  if (!task) throw usageError("the task is empty");
  const id = randomUUID();
  const workspace = await openWorkspace(options, id.slice(0, 8));
  if (!options.inPlace && (await hasChangesSince(workspace.repoRoot, workspace.baseCommit).catch(() => false))) {
    options.progress?.(`hatloop: note: your checkout has uncommitted changes; the task starts from ${workspace.baseCommit.slice(0, 10)} without them (commit them first, or use --in-place)`);
  }
  const hats = loadHats([bundledHatsDir, repoHatsDir(workspace.repoRoot)]);
  if (!hats.has(config.hat)) throw usageError(`unknown hat "${config.hat}" (hats: ${[...hats.keys()].sort().join(", ")})`);
  const commands = await gateCommands(workspace.worktreePath, config);
  const gates = Object.entries(commands).map(([name, cmd]) => `${name}: ${cmd}`);
  options.progress?.(gates.length ? `hatloop: quality-gate baseline (${gates.join("; ")})` : "hatloop: no test, lint or build command found; quality gates will pass trivially (configure gates.test etc.)");
  const baseline = gates.length ? await baselineFor(workspace.worktreePath, commands, config) : null;
  return store.sessions.create({
    id,
    task,
    title: titleOf(task),
    repoPath: workspace.repoRoot,
    worktreePath: workspace.worktreePath,
    branch: workspace.branch,
    baseCommit: workspace.baseCommit,
    inPlace: options.inPlace,
    hat: config.hat,
    model: options.modelId,
    budgets: {
      maxIterations: config.maxIterations,
      maxTokens: config.maxTokens ?? null,
      maxCostUsd: config.maxCostUsd ?? null,
      maxRuntimeMs: config.maxRuntime || null,
    },
    config: config as unknown as Record<string, unknown>,
    contextWindow: config.context.window ?? Math.min(contextWindowOf(options.modelId), DEFAULT_WORKING_WINDOW),
    status: "pending",
    gateBaseline: baseline,
  });
}

async function openWorkspace(options: StartOptions, shortId: string): Promise<TaskWorkspace> {
  try {
    return options.inPlace
      ? await inPlaceWorkspace(options.repoDir)
      : await createTaskWorktree({ repoDir: options.repoDir, sessionShortId: shortId, worktreeDir: options.config.worktreeDir });
  } catch (error) {
    // Bad input (not a repository, no commits, a name taken) is a usage error; git itself failing is not.
    if (error instanceof WorkspaceError) throw error.code === "git_failed" ? new CliError(error.message) : usageError(error.message);
    throw error;
  }
}

export function titleOf(task: string): string {
  const first = task.split("\n")[0]!.trim();
  return first.length > 72 ? `${first.slice(0, 69)}...` : first;
}
