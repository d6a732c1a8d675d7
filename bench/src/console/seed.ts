import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { EVENT_VERSION, shortId, type NewEvent, type SessionStatus, type Store } from "@hatloop/core";

// The sessions the console shows, written straight through the store (no loop runs: the console
// reads rows and events, whoever wrote them), several at a time. Most have ended; `running` of
// them hold a lease in this process's name, so the console shows them running, as a fleet's would.

const AT_ONCE = 16;
/** How the sessions that are not running ended, in turn. */
const ENDED: SessionStatus[] = ["completed", "completed", "completed", "completed", "failed", "stopped"];

export interface Seeded {
  /** Every session, oldest first. */
  ids: string[];
  /** The running ones (leased by this process). */
  running: string[];
}

/** One event as the loop stores it: a `model.notice` whose line the console shows ("model notice: TEXT"). */
export function noticeEvent(iteration: number, message: string): NewEvent {
  return { iteration, type: "model.notice", payload: { message }, version: EVENT_VERSION };
}

export async function seedSessions(store: Store, count: number, running: number): Promise<Seeded> {
  const ids = Array.from({ length: count }, () => randomUUID());
  // The newest sessions are the running ones: the sessions page lists the newest first.
  const runningFrom = count - running;
  let next = 0;
  const one = async (i: number) => {
    const id = ids[i]!;
    const iteration = 1 + (i % 40);
    await store.sessions.create({
      id,
      task: `Console bench session ${i + 1}: refactor module ${i % 97} and keep the tests green.`,
      title: `bench ${i + 1}`,
      repoPath: "/bench/repo",
      worktreePath: `/bench/worktrees/${shortId(id)}`,
      branch: `hatloop/${shortId(id)}`,
      baseCommit: "b".repeat(40),
      inPlace: false,
      hat: i % 3 === 0 ? "planner" : "builder",
      model: "claude-sonnet-4-5",
      budgets: { maxIterations: 60, maxTokens: null, maxCostUsd: 20, maxRuntimeMs: null },
      contextWindow: 200_000,
    });
    const status = i >= runningFrom ? "running" : ENDED[i % ENDED.length]!;
    await store.sessions.update(id, { status, iteration, costUsd: iteration * 0.07, runtimeMs: iteration * 41_000 });
    if (status === "running") await store.sessions.acquireLease(id, `${hostname()}:${process.pid}`, 3_600_000);
    await store.events.append(id, [noticeEvent(iteration, `seeded: iteration ${iteration} done`)]);
  };
  await Promise.all(
    Array.from({ length: Math.min(AT_ONCE, count) }, async () => {
      while (next < count) await one(next++);
    }),
  );
  return { ids, running: ids.slice(runningFrom) };
}
