import { randomUUID } from "node:crypto";
import type { PgBoss } from "pg-boss";
import { configSchema, configuredBudgets, type HatloopConfig, type NewSession } from "@hatloop/core";
import { submitSession } from "@hatloop/db";
import { remoteCommit, taskBranchName, WorkspaceError } from "@hatloop/tools";
import { CliError } from "../errors.js";
import { shortId } from "../format.js";
import { asCliError } from "../session/plan.js";
import { titleOf } from "../session/start.js";
import { enqueue } from "./queue.js";

// The one way a fleet session comes to be: `hatloop submit`, a schedule's firing (in a worker),
// `hatloop rerun`. Each makes a new session from a Submission: its row, its fleet row and its job in
// one transaction.

/** What a fleet session is made from; a schedule keeps one as its data (JSON), every firing reuses it. */
export interface Submission {
  /** The task, redacted. */
  task: string;
  /** The repository it travels with: a URL, or an absolute path the workers can reach. */
  repoUrl: string;
  /** The remote's branch it starts from; null: the one the remote's HEAD names. */
  base: string | null;
  /** Higher runs first (pg-boss's job priority). */
  priority: number;
  /** The configuration it runs with (the session's `config`): the submitted options, no database URL. */
  config: Record<string, unknown>;
  /** The context window it manages. */
  contextWindow: number;
}

export interface Submitted {
  id: string;
  jobId: string;
}

/**
 * Creates the session and queues it. `baseCommit`: the commit it starts from, resolved by the caller;
 * "" lets the worker that takes it resolve `base` then (a firing: the branch is read when it runs, and
 * a failure to read it is a failed start, retried and dead-lettered like a clone that fails).
 */
export async function createSession(
  url: string,
  boss: PgBoss,
  queueConfig: HatloopConfig,
  submission: Submission,
  origin: { baseCommit: string; schedule?: string; id?: string },
): Promise<Submitted> {
  const id = origin.id ?? randomUUID();
  const { jobId } = await submitSession(
    url,
    newSessionOf(id, submission, origin.baseCommit),
    { repoUrl: submission.repoUrl, priority: submission.priority, base: submission.base, schedule: origin.schedule ?? null },
    (tx) => enqueue(boss, queueConfig, { sessionId: id, repoUrl: submission.repoUrl, priority: submission.priority }, tx),
  );
  return { id, jobId };
}

function newSessionOf(id: string, submission: Submission, baseCommit: string): NewSession {
  const parsed = configSchema.safeParse(submission.config);
  if (!parsed.success) throw new CliError(`the submitted configuration is no longer valid: ${parsed.error.issues[0]?.message ?? "?"}`);
  const config = parsed.data;
  return {
    id,
    task: submission.task,
    title: titleOf(submission.task),
    repoPath: submission.repoUrl,
    worktreePath: "",
    branch: taskBranchName(shortId(id)),
    baseCommit,
    inPlace: false,
    hat: config.hat,
    model: config.model,
    budgets: configuredBudgets(config),
    config: submission.config,
    contextWindow: submission.contextWindow,
    status: "pending",
    pid: null,
    host: null,
  };
}

/** The commit a task starts from: the remote's `base` branch, or the one its HEAD names (exit 2 if none). */
export function startCommit(repoUrl: string, base: string | undefined): Promise<string> {
  return asCliError(remoteCommit(repoUrl, base).catch(withRemedy));
}

/** A remote whose HEAD names a missing branch: the two ways out. */
function withRemedy(error: unknown): never {
  if (error instanceof WorkspaceError && error.code === "dangling_head")
    throw new WorkspaceError(
      error.code,
      `${error.message}; pass --base <branch> to start from one of them, or point the remote's HEAD at one (in the remote: git symbolic-ref HEAD refs/heads/<branch>; on a hosting site: its default branch setting)`,
    );
  throw error;
}
