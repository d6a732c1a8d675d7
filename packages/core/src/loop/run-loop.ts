import { hostname } from "node:os";
import { MARKERS } from "@hatloop/context";
import { knownTopics } from "../hats/router.js";
import { Checkpointer } from "../checkpoint/checkpointer.js";
import { handoffBuilder } from "../checkpoint/handoff.js";
import { taskMessage } from "../prompt/build.js";
import type { LoopDeps, LoopOptions, LoopOutcome } from "./deps.js";
import { Emitter } from "./emitter.js";
import { LoopHealth } from "./health.js";
import { runIteration } from "./iteration.js";
import { appendLive, textBlock } from "./live.js";
import { closeOpenTurn } from "./open-turn.js";
import type { LoopContext } from "./loop-context.js";
import { endRun, failureFrom, saveCheckpoint } from "./outcomes.js";
import { restoreState, type RestoredState } from "./restore.js";
import { resumeQuestion } from "./question.js";
import { runtimeMs } from "./state.js";
import { errorLine } from "../text/error-line.js";
import { LeaseLostError } from "../store/port.js";

/**
 * Runs a session's loop until it completes, pauses (Ctrl-C, stop, a budget), stops (loop health) or
 * fails. A plain function over injected ports: the CLI, the tests and the benchmarks all drive it the
 * same way. Resumes from the latest checkpoint when the session has one.
 */
export async function runLoop(options: LoopOptions, deps: LoopDeps): Promise<LoopOutcome> {
  const now = deps.clock?.now ?? Date.now;
  const emitter = new Emitter(options.sessionId, deps.sinks, now);
  try {
    return await runSession(options, deps, emitter);
  } catch (error) {
    if (!(error instanceof LeaseLostError)) throw error;
    // Another runner owns the session now: every write of ours would be refused, so say why and go.
    emitter.emit("session.lease-lost", { message: error.message });
    return { status: "stopped", reason: "lease lost: another runner took the session over", exitCode: 1 };
  }
}

async function runSession(options: LoopOptions, deps: LoopDeps, emitter: Emitter): Promise<LoopOutcome> {
  const now = deps.clock?.now ?? Date.now;
  const store = deps.store;
  const session = await store.sessions.get(options.sessionId);
  if (!session) throw new Error(`no session ${options.sessionId}`);
  const restored: RestoredState = await restoreState(session, deps, options.config, now());
  const { state } = restored;
  emitter.iteration = state.iteration;
  const checkpointer = new Checkpointer({
    store,
    git: deps.git,
    emitter,
    retain: options.config.checkpoint.retain,
    commit: !session.inPlace,
    now,
    handoff: deps.handoff ?? handoffBuilder({ git: deps.git, store, now }),
  });
  const ctx: LoopContext = {
    deps,
    config: options.config,
    state,
    emitter,
    health: new LoopHealth(state.health),
    checkpointer,
    knownTopics: knownTopics(deps.hats),
    toolNames: deps.tools.map((t) => t.spec.name),
    memories: await store.memories.listActive(session.repoPath, { kind: "memory", limit: 8 }),
    interactive: options.interactive ?? false,
    now,
  };
  for (const warning of restored.warnings) emitter.emit("error", { message: warning, fatal: false });

  await store.sessions.update(session.id, {
    status: "running",
    stopReason: null,
    lastError: null,
    pid: process.pid,
    host: hostname(),
    startedAt: session.startedAt ?? new Date(now()),
    heartbeatAt: new Date(now()),
  });
  emitter.emit("session.start", {
    task: session.task,
    hat: state.hat.name,
    branch: session.branch,
    worktree: session.worktreePath,
    model: session.model,
    resumed: restored.resumed,
    maxIterations: session.budgets.maxIterations,
    ...(deps.runner === undefined ? {} : { runner: deps.runner }),
  });
  emitter.emit("session.status", { status: "running", reason: restored.resumed ? "resumed" : null });

  let outcome: LoopOutcome | null = null;
  try {
    // Killed after completing the task and before recording it: record it now, with no new turn.
    if (restored.completed) outcome = await endRun(ctx, { kind: "completed" });
    // Killed while an answer's turn was open: close it as the iteration would have, then say where we stand.
    if (restored.openTurn) outcome = await closeOpenTurn(ctx, restored.openTurn).then((e) => e && endRun(ctx, e));
    const note = restored.resumed && options.resumeNote ? `${MARKERS.continuation} ${options.resumeNote}` : null;
    const said = [restored.resumePacket, note].filter((text) => text !== null);
    // Not after a run the open turn ended (its question): the next resume says where it stands.
    if (said.length && !outcome) await appendLive(ctx, { role: "user", content: said.map(textBlock) }, "injected");
    if (!restored.resumed) {
      // The task verbatim (what the user said), then hatloop's note about where it runs (marked as injected).
      const note = taskMessage(deps.prompts, { task: session.task, branch: session.branch, base: session.baseCommit, hat: state.hat.name });
      await appendLive(ctx, { role: "user", content: [textBlock(session.task), textBlock(note)] });
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
    emitter.emit("error", { message, fatal: true });
    outcome = await endRun(ctx, { kind: "failed", reason: message, failure: failureFrom(ctx, error, "loop") }).catch(() => ({
      status: "failed" as const,
      reason: message,
      exitCode: 1 as const,
    }));
  }
  await store.sessions.update(session.id, {
    status: outcome.status,
    stopReason: outcome.reason,
    lastError: outcome.status === "failed" ? outcome.reason : null,
    runtimeMs: runtimeMs(state, now()),
    finishedAt: outcome.status === "completed" ? new Date(now()) : null,
    pid: null,
    iteration: state.iteration,
    hat: state.hat.name,
  });
  // A run ending to wait for an answer said so when it began waiting, with the question.
  if (outcome.status !== "waiting") emitter.emit("session.status", { status: outcome.status, reason: outcome.reason });
  emitter.emit("session.end", {
    status: outcome.status === "stopped" ? "stopped" : outcome.status,
    reason: outcome.reason,
    iterations: state.iteration,
    costUsd: state.costUsd,
  });
  return outcome;
}
