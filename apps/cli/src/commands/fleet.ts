import { existsSync, realpathSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Command } from "commander";
import { redactSecrets } from "@hatloop/context";
import { type HatloopConfig, type SessionRecord } from "@hatloop/core";
import { fleetStore, type DbStore } from "@hatloop/db";
import { contextWindowOf } from "@hatloop/model";
import { closeSandbox } from "@hatloop/tools";
import { CliError, ExitCode, usageError } from "../errors.js";
import { shortId } from "../format.js";
import { printJson, printText } from "../output/print.js";
import { configFor, openConfiguredStore, resolveSession } from "../runtime.js";
import { isLive } from "../session/liveness.js";
import { chooseModel } from "../session/model.js";
import { checkTaskSize } from "../session/plan.js";
import { enqueue, openQueue, QUEUE, serverUrl, withQueue } from "../fleet/queue.js";
import { Worker } from "../fleet/worker.js";
import { createSession, startCommit, type Submission } from "../fleet/submission.js";
import { runConfigFlags, taskText, type RunFlags } from "./run.js";
import { bundledHatsDir } from "../session/paths.js";
import { loadHats } from "../session/prompt-files.js";
import { invocation } from "../invocation.js";

// The fleet's actions (commands defined in fleet-commands.ts): submit (queue a task), worker (run
// queued sessions), stop (from anywhere).

export async function submitAction(words: string[], flags: SubmitFlags, command: Command): Promise<void> {
  process.exitCode = await submitTask(words, flags, command);
}

export async function workerAction(flags: { concurrency: number; name?: string; json?: boolean }, command: Command): Promise<void> {
  const config = configFor(command);
  const url = serverUrl(config, "worker");
  const name = flags.name ?? `${hostname()}-${process.pid}`;
  if (!/^[A-Za-z0-9][A-Za-z0-9._:@-]*$/.test(name)) throw usageError(`invalid worker name "${name}" (letters, digits, . _ : @ -)`);
  const store = await openConfiguredStore(config);
  try {
    const boss = await openQueue(url, config, { supervise: true });
    process.exitCode = await new Worker({ store, boss, config, name, concurrency: flags.concurrency, json: Boolean(flags.json) }).run();
  } finally {
    await store.close();
    await closeSandbox();
  }
}

export async function stopAction(id: string, flags: { json?: boolean }, command: Command): Promise<void> {
  const config = configFor(command);
  const store = await openConfiguredStore(config);
  try {
    const outcome = await stopSession(store, config, await resolveSession(store, id));
    if (flags.json) printJson(outcome);
    else printText(`session ${shortId(outcome.id)}: ${outcome.message}`);
  } finally {
    await store.close();
  }
}

export type SubmitFlags = RunFlags & { base?: string; priority?: number };

async function submitTask(words: string[], flags: SubmitFlags, command: Command): Promise<number> {
  const { config, submission } = await submissionOf(words, flags, command, "submit");
  const url = serverUrl(config, "submit");
  const baseCommit = await startCommit(submission.repoUrl, flags.base);
  const store = await openConfiguredStore(config); // migrates the database first
  let id: string;
  try {
    ({ id } = await withQueue(url, config, (boss) => createSession(url, boss, config, submission, { baseCommit })));
  } finally {
    await store.close();
  }
  if (flags.json) printJson({ id });
  else printText(id);
  return ExitCode.ok;
}

/**
 * What submit's flags ask for, checked as submit checks it (a fleet database, the task, its size,
 * the hat, the repository): submit's and schedule's. The configuration is the submitter's.
 */
export async function submissionOf(
  words: string[],
  flags: SubmitFlags,
  command: Command,
  name: string,
): Promise<{ config: HatloopConfig; submission: Submission }> {
  const config = configFor(command, runConfigFlags(flags));
  serverUrl(config, name);
  if (flags.inPlace) throw usageError(`--in-place does not go with ${name} (a worker works in its own worktree)`);
  const modelId = config.model.startsWith("scripted:") ? chooseModel(config.model, config).id : config.model;
  const task = redactSecrets((await taskText(words, flags)).trim());
  if (!task) throw usageError("the task is empty");
  // As `run` does: without a configured window, at most 200k tokens are managed.
  const contextWindow = config.context.window ?? Math.min(contextWindowOf(modelId), 200_000);
  checkTaskSize(task, contextWindow);
  const repoUrl = repositoryOf(flags.repo!);
  const hats = loadHats([bundledHatsDir]);
  if (!hats.has(config.hat) && !existsSync(repoUrl))
    throw usageError(`unknown hat "${config.hat}" (hats: ${[...hats.keys()].sort().join(", ")})`);
  // A task started from a branch proposes its work back to it, unless the configuration names another.
  const pr = flags.base && !config.pr.base ? { ...config.pr, base: flags.base } : config.pr;
  return {
    config,
    submission: {
      task,
      repoUrl,
      base: flags.base ?? null,
      priority: flags.priority ?? 0,
      config: { ...config, pr, model: modelId, databaseUrl: undefined },
      contextWindow,
    },
  };
}

/** A local path becomes absolute (workers on this machine can reach it); a URL stays as given. */
function repositoryOf(repo: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repo) || /^[^/\s]+@[^:\s]+:/.test(repo)) return repo;
  const path = resolve(repo);
  if (!existsSync(path)) throw usageError(`no repository at ${path}`);
  return realpathSync(path);
}

export interface StopOutcome {
  id: string;
  action: "cancelled" | "requested" | "nothing";
  message: string;
}

/** A queued session leaves the queue now; a running one is asked to checkpoint and pause. */
export async function stopSession(store: DbStore, config: HatloopConfig, session: SessionRecord): Promise<StopOutcome> {
  const fleet = fleetStore(store.database.db);
  if (session.status === "completed" || session.status === "failed")
    return { id: session.id, action: "nothing", message: `already ${session.status}` };
  const row = await fleet.get(session.id);
  if (row?.repoUrl && config.databaseUrl && /^postgres/.test(config.databaseUrl)) {
    const [state] = await fleet.list([session.id], { schema: "pgboss", name: QUEUE });
    if (state?.queueState === "queued") {
      const boss = await openQueue(config.databaseUrl, config, { supervise: false });
      try {
        await fleet.requestStop(session.id); // in case a worker takes it meanwhile
        await boss.cancel(QUEUE, state.jobId!);
        const after = (await fleet.list([session.id], { schema: "pgboss", name: QUEUE }))[0];
        if (after?.queueState == null) {
          await store.sessions.update(session.id, { status: "paused", stopReason: "stopped (hatloop stop)" });
          await fleet.clearStop(session.id);
          return { id: session.id, action: "cancelled", message: `taken out of the queue; ${invocation()} resume puts it back` };
        }
      } finally {
        await boss.stop({ graceful: false, close: true }).catch(() => {});
      }
    }
  }
  if (!isLive(session) && !(row?.repoUrl && (await isActive(fleet, session.id)))) {
    if (session.status === "paused") return { id: session.id, action: "nothing", message: "not running (paused)" };
  }
  await fleet.requestStop(session.id);
  return { id: session.id, action: "requested", message: "stop requested: its runner checkpoints and pauses at the end of this iteration" };
}

async function isActive(fleet: ReturnType<typeof fleetStore>, id: string): Promise<boolean> {
  const [row] = await fleet.list([id], { schema: "pgboss", name: QUEUE });
  return row?.queueState != null;
}

/**
 * `hatloop resume` (and `answer`, and the console's) of a fleet session: back in the queue, for any
 * worker. `patienceMs`: how long to keep trying while its last job is still active (a worker that has
 * just let the session go finishes its job a moment later). Returns what was done, in words.
 */
export async function requeue(store: DbStore, config: HatloopConfig, session: SessionRecord, patienceMs = 0): Promise<string> {
  const fleet = fleetStore(store.database.db);
  const row = await fleet.get(session.id);
  if (!row?.repoUrl) throw new CliError(`session ${shortId(session.id)} is not a fleet session`);
  const url = serverUrl(config, "resume");
  const boss = await openQueue(url, config, { supervise: false });
  try {
    await fleet.clearStop(session.id);
    await fleet.revive(session.id); // a dead-lettered session resumed is tried afresh, as retry does
    const deadline = Date.now() + patienceMs;
    const job = { sessionId: session.id, repoUrl: row.repoUrl, priority: row.priority };
    let jobId = await enqueue(boss, config, job);
    while (!jobId && Date.now() < deadline) {
      await sleep(250);
      jobId = await enqueue(boss, config, job);
    }
    if (!jobId) throw usageError(`session ${shortId(session.id)} is already queued or running`);
    await fleet.setJob(session.id, jobId);
  } finally {
    await boss.stop({ graceful: false, close: true }).catch(() => {});
  }
  return `session ${shortId(session.id)} is queued again; a worker resumes it from its last checkpoint`;
}
