import { fleetStore, type DbStore } from "@hatloop/db";
import type { HatloopConfig } from "@hatloop/core";
import { CliError, usageError } from "../errors.js";
import { shortId } from "../format.js";
import { enqueue, serverUrl, withQueue } from "./queue.js";
import { createSession, startCommit } from "./submission.js";

// The fleet's actions on a session that `hatloop retry` / `rerun` and the web console share: plain
// functions that return what happened and throw a CliError (one line, its exit code) when they cannot.

/** A dead-lettered session back in the queue, its start attempts from zero; anything else is a usage error (exit 2). */
export async function retrySession(store: DbStore, config: HatloopConfig, sessionId: string): Promise<{ id: string; jobId: string }> {
  const url = serverUrl(config, "retry");
  const session = await store.sessions.get(sessionId);
  if (!session) throw new CliError(`no session ${sessionId}`);
  const fleet = fleetStore(store.database.db);
  const row = await fleet.get(session.id);
  if (!row?.repoUrl || !row.deadLetteredAt)
    throw usageError(
      `session ${shortId(session.id)} is not dead-lettered (only a session whose starts failed is retried; resume continues others)`,
    );
  if (!(await fleet.revive(session.id))) throw usageError(`session ${shortId(session.id)} is not dead-lettered`);
  const jobId = await withQueue(url, config, (boss) =>
    enqueue(boss, config, { sessionId: session.id, repoUrl: row.repoUrl!, priority: row.priority }),
  );
  if (!jobId) throw usageError(`session ${shortId(session.id)} is already queued or running`);
  await fleet.setJob(session.id, jobId);
  return { id: session.id, jobId };
}

/**
 * A session's task again, as a new session: the same repository, base branch, priority and submitted
 * options, from the base branch's commit of now. Only a fleet session can be re-run (exit 2 else).
 */
export async function rerunSession(store: DbStore, config: HatloopConfig, sessionId: string): Promise<{ id: string; from: string }> {
  const url = serverUrl(config, "rerun");
  const session = await store.sessions.get(sessionId);
  if (!session) throw new CliError(`no session ${sessionId}`);
  const row = await fleetStore(store.database.db).get(session.id);
  if (!row?.repoUrl) throw usageError(`session ${shortId(session.id)} is not a fleet session (run it again with: hatloop run)`);
  const baseCommit = await startCommit(row.repoUrl, row.base ?? undefined);
  const submission = {
    task: session.task,
    repoUrl: row.repoUrl,
    base: row.base,
    priority: row.priority,
    config: session.config,
    contextWindow: session.contextWindow,
  };
  const { id } = await withQueue(url, config, (boss) => createSession(url, boss, config, submission, { baseCommit }));
  return { id, from: session.id };
}
