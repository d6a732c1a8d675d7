import type { Command } from "commander";
import { findRestorePoint, prConfigSchema, type HatloopConfig, type SessionRecord, type Store } from "@hatloop/core";
import { closeSandbox, hasChangesSince, resetTo } from "@hatloop/tools";
import { existsSync } from "node:fs";
import { fleetStore } from "@hatloop/db";
import { CliError, usageError } from "../errors.js";
import { shortId } from "../format.js";
import { pullRequestConfig, sandboxConfig, usageLimitConfig } from "../options.js";
import { outputMode } from "../ui/output-mode.js";
import type { SessionUi } from "../ui/session-ui.js";
import { configFor, openConfiguredStore, resolveSession } from "../runtime.js";
import { driveSession } from "../session/drive.js";
import { applyBudgets } from "../session/budgets.js";
import { isLive } from "../session/liveness.js";
import { chooseModel, sessionProvider } from "../session/model.js";
import { requeue } from "./fleet.js";
import { printText } from "../output/print.js";
import { invocation } from "../invocation.js";

export interface ResumeFlags {
  last?: boolean;
  maxIterations?: number;
  maxCost?: number;
  maxTokens?: number;
  maxRuntime?: number;
  maxWait?: number;
  usageLimit?: string;
  sandbox?: string;
  force?: boolean;
  pr?: boolean;
  draft?: boolean;
  json?: boolean;
  plain?: boolean;
}

export async function resumeAction(id: string | undefined, flags: ResumeFlags, command: Command): Promise<void> {
  process.exitCode = await resume(id, flags, command);
}

async function resume(id: string | undefined, flags: ResumeFlags, command: Command): Promise<number> {
  if (!id && !flags.last) throw usageError("name a session to resume, or pass --last");
  const config = configFor(command, { maxWait: flags.maxWait, retry: usageLimitConfig(flags), tools: sandboxConfig(flags) });
  const store = await openConfiguredStore(config);
  try {
    const session = id ? await resolveSession(store, id) : await lastResumable(store);
    // A fleet session goes back to the queue (with any raised budget), for whichever worker is free.
    if ((await fleetStore(store.database.db).get(session.id))?.repoUrl) {
      checkResumable(session, flags);
      // A queued session's options travel in its row, set at submit; a flag here would do nothing.
      if (flags.pr || flags.draft)
        throw usageError(`session ${shortId(session.id)} runs on the fleet: give --pr or --draft to ${invocation()} submit`);
      printText(await requeue(store, config, await applyBudgets(store, session, flags)));
      return 0;
    }
    return await resumeSession(store, session, flags, config);
  } finally {
    await store.close();
    await closeSandbox();
  }
}

/** Checks, raises budgets, checks the worktree, then runs the loop from the latest checkpoint. */
export async function resumeSession(
  store: Store,
  found: SessionRecord,
  flags: ResumeFlags,
  config: HatloopConfig,
  ui?: SessionUi,
): Promise<number> {
  checkResumable(found, flags);
  const session = await applyBudgets(store, found, flags);
  await checkWorktree(store, session, Boolean(flags.force));
  const provider = sessionProvider(session.config);
  const model = chooseModel(session.model, { ...config, provider });
  await model.ready();
  const pr = { ...pullRequestOf(session, config), ...pullRequestConfig(flags) };
  return driveSession({ session, store, config: { ...config, model: session.model, provider, pr }, model, output: outputMode(flags), ui });
}

/** A session started with --pr (or a pr config) keeps it when resumed; --pr/--draft on resume turn it on. */
function pullRequestOf(session: SessionRecord, config: HatloopConfig): HatloopConfig["pr"] {
  const stored = prConfigSchema.safeParse(session.config.pr);
  return "pr" in session.config && stored.success ? stored.data : config.pr;
}

async function lastResumable(store: Store): Promise<SessionRecord> {
  const candidates = (await store.sessions.list({ limit: 50 })).filter((s) => s.status !== "completed" && !isLive(s));
  const newest = candidates.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())[0];
  if (!newest) throw new CliError(`no session to resume (see ${invocation()} ls)`);
  return newest;
}

export function checkResumable(session: SessionRecord, flags: ResumeFlags): void {
  const sid = shortId(session.id);
  if (session.status === "completed") throw usageError(`session ${sid} is completed; there is nothing to resume`);
  if (isLive(session))
    throw usageError(`session ${sid} is running in another process (pid ${session.pid}); follow it with: ${invocation()} watch ${sid}`);
  // A question's wait is not used up like the others: resuming waits again (or delivers the answer).
  const budget = /^budget:(\w+)$/.exec(session.stopReason ?? "")?.[1]?.replace(/^wait$/, "");
  const raised = { iterations: flags.maxIterations, tokens: flags.maxTokens, cost: flags.maxCost, runtime: flags.maxRuntime }[budget ?? ""];
  if (session.status === "paused" && budget && raised === undefined) {
    const flag =
      { iterations: "--max-iterations N", tokens: "--max-tokens N", cost: "--max-cost USD", runtime: "--max-runtime 1h" }[budget] ??
      "a higher budget";
    throw usageError(`session ${sid} stopped at its ${budget} budget; resume with ${flag} to allow more`);
  }
}

/**
 * The worktree must be where hatloop left it. Changes since hatloop's last commit that no stored
 * message explains are the user's: refuse (unless --force) rather than overwrite them. When the
 * checkpoint we restore is older than that commit (a corrupt newer one), go back to its tree.
 */
async function checkWorktree(store: Store, session: SessionRecord, force: boolean): Promise<void> {
  const sid = shortId(session.id);
  if (!existsSync(session.worktreePath)) throw new CliError(`the worktree of session ${sid} is gone: ${session.worktreePath}`);
  const point = await findRestorePoint(store, session.id);
  const commit = point.checkpoint?.gitCommit;
  if (!commit || force) return;
  const crashedMidRun = (await store.messages.lastSeq(session.id)) >= point.tailFrom;
  if (crashedMidRun) return; // the uncommitted changes are the interrupted iteration's own work
  const lastCommit = session.headCommit ?? commit;
  // A run killed between storing a checkpoint and recording its commit on the session leaves
  // headCommit one behind: the worktree then matches the checkpoint's commit, and is hatloop's own.
  const changed =
    (await hasChangesSince(session.worktreePath, lastCommit)) &&
    (lastCommit === commit || (await hasChangesSince(session.worktreePath, commit)));
  if (changed) {
    throw usageError(
      `the worktree of session ${sid} changed since its last checkpoint (${lastCommit.slice(0, 10)}); commit or stash your changes, or resume with --force to keep them`,
    );
  }
  if (lastCommit !== commit) await resetTo(session.worktreePath, commit);
}
