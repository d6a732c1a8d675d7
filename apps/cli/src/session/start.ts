import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { configuredBudgets, failpoint, type SessionRecord, type Store } from "@hatloop/core";
import {
  deleteRef,
  dirtyStateRef,
  GatesAbortedError,
  hasChangesSince,
  inPlaceWorkspace,
  keepDirtyState,
  makeTaskWorktree,
  planTaskWorktree,
  removeTaskWorktree,
  type TaskWorkspace,
} from "@hatloop/tools";
import { CliError, ExitCode } from "../errors.js";
import { shortId } from "../format.js";
import { baselineFor, gateCommands } from "./gates.js";
import { asCliError, type SessionPlan } from "./plan.js";

interface StartOptions {
  /** Told what is happening while the baseline runs (it can take a while on big projects). */
  progress?: (line: string) => void;
  /** Aborting stops the baseline's commands and takes back what the start made. */
  signal?: AbortSignal;
}

/**
 * Creates the workspace (a worktree on a new branch, or the checkout itself), takes the quality-gate
 * baseline and writes the session row. If any step fails or the start is aborted, what it created is
 * removed again: a failed start leaves no worktree, branch or session behind.
 */
async function startSession(plan: SessionPlan, store: Store, options: StartOptions = {}): Promise<SessionRecord> {
  const id = randomUUID();
  const workspace = await asCliError(
    plan.inPlace
      ? inPlaceWorkspace(plan.repoRoot)
      : planTaskWorktree({ repoDir: plan.repoRoot, sessionShortId: shortId(id), worktreeDir: plan.config.worktreeDir }),
  );
  try {
    return await prepare(plan, store, options, id, workspace);
  } catch (error) {
    await store.sessions.delete(id).catch(() => {});
    // In place, the checkout was not written to yet: the copy of its uncommitted state is not needed.
    const undo = plan.inPlace
      ? deleteRef(workspace.repoRoot, dirtyStateRef(shortId(id)))
      : removeTaskWorktree({ repoRoot: workspace.repoRoot, worktreePath: workspace.worktreePath, deleteBranch: workspace.branch });
    await undo.catch((cleanup: Error) => options.progress?.(`hatloop: could not take back what the start made: ${cleanup.message}`));
    if (error instanceof GatesAbortedError || options.signal?.aborted) {
      throw new CliError("interrupted while taking the quality-gate baseline; nothing was kept", ExitCode.interrupted);
    }
    throw error;
  }
}

async function prepare(
  plan: SessionPlan,
  store: Store,
  options: StartOptions,
  id: string,
  workspace: TaskWorkspace,
): Promise<SessionRecord> {
  const { config } = plan;
  if (plan.inPlace && plan.allowDirty) {
    const ref = dirtyStateRef(shortId(id));
    if (await keepDirtyState(workspace.repoRoot, ref))
      options.progress?.(`hatloop: your uncommitted changes are kept under ${ref}; to get them back: git stash apply ${ref}`);
  } else if (!plan.inPlace && (await hasChangesSince(workspace.repoRoot, workspace.baseCommit).catch(() => false))) {
    options.progress?.(
      `hatloop: note: your checkout has uncommitted changes; the task starts from ${workspace.baseCommit.slice(0, 10)} without them (commit them first, or use --in-place --allow-dirty)`,
    );
  }
  // The row comes before the worktree and the (possibly long) baseline, so a start killed meanwhile
  // leaves a session that `ls` shows as interrupted and `hatloop rm` removes with its worktree, not
  // nameless debris.
  const session = await store.sessions.create({
    id,
    task: plan.task,
    title: titleOf(plan.task),
    repoPath: workspace.repoRoot,
    worktreePath: workspace.worktreePath,
    branch: workspace.branch,
    baseCommit: workspace.baseCommit,
    inPlace: plan.inPlace,
    hat: config.hat,
    model: plan.modelId,
    budgets: configuredBudgets(config),
    config: config,
    contextWindow: plan.contextWindow,
    status: "pending",
    pid: process.pid,
    host: hostname(),
  });
  failpoint("after-start-row");
  if (!plan.inPlace) await asCliError(makeTaskWorktree(workspace));
  failpoint("after-start-worktree");
  const commands = await gateCommands(workspace.worktreePath, config);
  const gates = Object.entries(commands).map(([name, cmd]) => `${name}: ${cmd}`);
  options.progress?.(
    gates.length
      ? `hatloop: quality-gate baseline (${gates.join("; ")})`
      : "hatloop: no test, lint or build command found; quality gates will pass trivially (configure gates.test etc.)",
  );
  const baseline = gates.length ? await baselineFor(workspace.worktreePath, commands, config, options.signal) : null;
  if (options.signal?.aborted) throw new GatesAbortedError();
  await store.sessions.update(id, { gateBaseline: baseline });
  return { ...session, gateBaseline: baseline };
}

/**
 * Runs startSession with Ctrl-C and SIGTERM turned into an abort: without this, the signal would end
 * the process at once and leave the baseline's command running in its own process group.
 */
export async function startInterruptibly(plan: SessionPlan, store: Store, progress: (line: string) => void): Promise<SessionRecord> {
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await startSession(plan, store, { progress, signal: abort.signal });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

export function titleOf(task: string): string {
  const first = task.split("\n")[0]!.trim();
  return first.length > 72 ? `${first.slice(0, 69)}...` : first;
}
