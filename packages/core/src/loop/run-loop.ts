import { hostname } from "node:os";
import { MARKERS } from "@hatloop/context";
import { knownTopics } from "../hats/router.js";
import { handoffBuilder } from "../checkpoint/handoff.js";
import { taskMessage } from "../prompt/build.js";
import type { LoopOutcome } from "../state/outcome.js";
import type { LoopDeps, LoopOptions } from "./deps.js";
import { commit, report } from "./commit.js";
import { runIteration } from "./iteration.js";
import { loopTools } from "./loop-tools.js";
import { closeOpenTurn } from "./open-turn.js";
import type { LoopContext } from "./loop-context.js";
import { endRun, failureFrom, saveCheckpoint } from "./outcomes.js";
import { restoreState, type RestoredState } from "./restore.js";
import { resumeQuestion } from "./question.js";
import { textBlock } from "./text-block.js";
import { errorLine } from "../text/error-line.js";
import { LeaseLostError } from "../store/port.js";

/**
 * Runs a session's loop until it completes, pauses (Ctrl-C, stop, a budget), stops (loop health) or
 * fails. A plain function over injected ports: the CLI, the tests and the benchmarks all drive it the
 * same way. Resumes from the latest checkpoint when the session has one.
 */
export async function runLoop(options: LoopOptions, deps: LoopDeps): Promise<LoopOutcome> {
  const now = deps.clock?.now ?? Date.now;
  const { store } = deps;
  const session = await store.sessions.get(options.sessionId);
  if (!session) throw new Error(`no session ${options.sessionId}`);
  const restored = await restoreState(session, deps, now());
  const topics = knownTopics(deps.hats);
  const ctx: LoopContext = {
    deps,
    config: options.config,
    state: restored.state,
    handoff: deps.handoff ?? handoffBuilder({ git: deps.git, store, now }),
    knownTopics: topics,
    toolNames: deps.tools.map((t) => t.spec.name),
    loopTools: new Map(loopTools(topics).map((tool) => [tool.spec.name, tool])),
    memories: await store.memories.listActive(session.repoPath, { kind: "memory", limit: 8 }),
    interactive: options.interactive ?? false,
    now,
  };
  try {
    return await runSession(ctx, options, restored);
  } catch (error) {
    if (!(error instanceof LeaseLostError)) throw error;
    // Another runner owns the session now: every write of ours would be refused, so say why and go.
    report(ctx, { type: "session.lease-lost", data: { message: error.message } });
    return { status: "stopped", reason: "lease lost: another runner took the session over", exitCode: 1 };
  }
}

async function runSession(ctx: LoopContext, options: LoopOptions, restored: RestoredState): Promise<LoopOutcome> {
  const { deps, state, now } = ctx;
  const session = state.session;
  for (const warning of restored.warnings) report(ctx, { type: "error", data: { message: warning, fatal: false } });
  await commit(ctx, { type: "run-started", resumed: restored.resumed, pid: process.pid, host: hostname(), at: now() });

  let outcome: LoopOutcome | null = null;
  try {
    // Killed after completing the task and before recording it: record it now, with no new turn.
    if (restored.completed) outcome = await endRun(ctx, { kind: "completed" });
    // Killed while an answer's turn was open: close it as the iteration would have, then say where we stand.
    if (restored.openTurn) outcome = await closeOpenTurn(ctx, restored.openTurn).then((e) => e && endRun(ctx, e));
    const note = restored.resumed && options.resumeNote ? `${MARKERS.continuation} ${options.resumeNote}` : null;
    const said = [restored.resumePacket, note].filter((text) => text !== null);
    // Not after a run the open turn ended (its question): the next resume says where it stands.
    if (said.length && !outcome)
      await commit(ctx, { type: "appended", message: { role: "user", content: said.map(textBlock) }, kind: "injected" });
    if (!restored.resumed) {
      // The task verbatim (what the user said), then hatloop's note about where it runs (marked as injected).
      const note = taskMessage(deps.prompts, { task: session.task, branch: session.branch, base: session.baseCommit, hat: state.hat.name });
      await commit(ctx, {
        type: "appended",
        message: { role: "user", content: [textBlock(session.task), textBlock(note)] },
        kind: "conversation",
      });
      await saveCheckpoint(ctx, "start");
    } else if (!restored.checkpoint && !outcome) {
      // Restored from the log alone (killed before its first checkpoint): give the next crash one.
      await saveCheckpoint(ctx, "start");
    }
    // Stopped while the agent's question was open: its answer first, or wait for it again.
    if (!outcome && session.question) outcome = await resumeQuestion(ctx, session.question).then((e) => e && endRun(ctx, e));
    while (!outcome) {
      // A fast model (or a scripted one) resolves everything in microtasks: without this yield the
      // loop would starve timers and sockets — the event persister, signals, watchers served by this
      // process's embedded database — until the run ends.
      await new Promise<void>((resolve) => setImmediate(resolve));
      outcome = await runIteration(ctx);
    }
  } catch (error) {
    if (error instanceof LeaseLostError) throw error;
    const message = errorLine(error); // stored and printed: a database error's message holds megabytes of parameters
    report(ctx, { type: "error", data: { message, fatal: true } });
    outcome = await endRun(ctx, { kind: "failed", reason: message, failure: failureFrom(ctx, error, "loop") }).catch(() => ({
      status: "failed" as const,
      reason: message,
      exitCode: 1 as const,
    }));
  }
  await commit(ctx, { type: "run-ended", outcome, at: now() });
  return outcome;
}
