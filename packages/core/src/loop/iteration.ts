import { textOf } from "@hatloop/context";
import { toolUseBlocks } from "../ports/model.js";
import type { ToolServices } from "../ports/tools.js";
import { parseSignals } from "../signals/parse.js";
import { applySignals, type SignalEffects } from "./apply-signals.js";
import { exceededBudget } from "./budgets.js";
import { commit, report } from "./commit.js";
import type { LoopOutcome } from "../state/outcome.js";
import type { ExecutionResult } from "./execution.js";
import { executeToolCalls } from "./executor.js";
import type { LoopContext } from "./loop-context.js";
import type { ModelCall } from "./model-call.js";
import { takeModelTurn } from "./model-turn.js";
import { failpoint } from "../failpoint.js";
import { LeaseLostError } from "../store/port.js";
import { errorLine } from "../text/error-line.js";
import { COMPLETION_REFUSED } from "./completion.js";
import { endRun, saveCheckpoint, type Ending } from "./outcomes.js";
import { askUser } from "./question.js";
import { handleRefusal } from "./refusal.js";
import { runtimeMs, totalTokens } from "../state/loop-state.js";
import { closeTurn, deliverSteering } from "./turn-end.js";
import { route } from "./routing.js";
import { gradeCompletion } from "./grading.js";
import { messageText } from "../context/message-text.js";
import { seqsShownInFull } from "../context/recall-block.js";
import { checkAnswer, checkGate, checkProgress } from "./health.js";
import { commitHealth, recordHealth } from "./health-notes.js";

// One iteration, top to bottom: control → budgets → health → context guard and model (model-turn.ts)
// → tools → signals → routing → the closing message → checkpoint policy. Each step hands what it did
// to the write path (commit.ts) as a Change, the only way the state, the store or the event stream
// change; a run ends through one named Ending (outcomes.ts).

export async function runIteration(ctx: LoopContext): Promise<LoopOutcome | null> {
  const { state } = ctx;
  const ending =
    (await checkControl(ctx)) ??
    (await checkBudgets(ctx)) ??
    (state.healthStop ? { kind: "health" as const, reason: state.healthStop } : null);
  if (ending) return endRun(ctx, ending);

  await commit(ctx, { type: "iteration-started" });
  const started = ctx.now();
  await deliverSteering(ctx);

  // The context guard, then the model's answer (compactions and overflow retries happen in there).
  const turn = await takeModelTurn(ctx);
  if (turn.kind === "ended") return endRun(ctx, turn.ending);
  const { response } = turn.call;
  if (response.stopReason === "refusal") {
    await handleRefusal(ctx, response);
    await closeTurn(ctx, { results: [], hatChange: null });
    await finishIteration(ctx, started);
    return null;
  }
  await commitHealth(ctx, checkAnswer(state.health, false, ""));
  const calls = toolUseBlocks(response);
  const text = await keepAnswer(ctx, turn.call, calls.length);

  // Tools, then the signals of the text and of the loop tools, then completion or routing.
  const signals = turn.call.detector.unhandled(parseSignals(text, ctx.knownTopics));
  const execution = calls.length ? await executeToolCalls(ctx, calls, services(ctx)) : null;
  const newCall = Boolean(execution?.signatures.some((s) => !state.seenCalls.has(s)));
  await commit(ctx, { type: "called", signatures: execution?.signatures ?? [] });
  const effects = await applySignals(ctx, [...signals, ...(execution?.signals ?? [])]);
  await recordHealth(ctx, execution);
  const completion = execution ? await checkCompletion(ctx, execution, effects) : null;
  const hatChange = completion ? (completion.revision ?? null) : await route(ctx, effects);

  if (execution) await keepWrites(ctx);
  const { warnCrossed } = await closeTurn(ctx, { results: execution?.blocks ?? [], hatChange });
  if (hatChange) failpoint("after-hat-change-message");
  if (completion?.complete) failpoint("after-completion-message");
  const progressed =
    effects.progressed || hatChange !== null || newCall || Boolean(execution?.records.some((r) => r.result.meta?.changedFiles?.length));
  await commitHealth(ctx, checkProgress(state.health, progressed));
  await finishIteration(ctx, started);

  if (completion?.complete) return endRun(ctx, { kind: "completed" });
  if (completion?.ending) return endRun(ctx, completion.ending);
  if (hatChange) await saveCheckpoint(ctx, "hat-change");
  if (warnCrossed) await saveCheckpoint(ctx, "warn-threshold");
  if (state.iteration % ctx.config.checkpoint.interval === 0) await saveCheckpoint(ctx, "interval");
  const unanswered = effects.question ? await askUser(ctx, effects.question) : null;
  return unanswered && endRun(ctx, unanswered);
}

async function checkControl(ctx: LoopContext): Promise<Ending | null> {
  const { control } = ctx.deps;
  let held = false;
  await control.waitWhilePaused(() => {
    held = true;
    report(ctx, { type: "session.status", data: { status: "paused", reason: "paused by the user" } });
  });
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by a callback or another task while this one awaited; TypeScript keeps the narrowing from before
  if (held && !control.interrupted && !control.stopRequested)
    report(ctx, { type: "session.status", data: { status: "running", reason: "continued by the user" } });
  if (control.interrupted) return { kind: "interrupted" };
  if (control.stopRequested) return { kind: "stopped-by-user" };
  return null;
}

/**
 * The first budget reached, as an Ending. Before stopping there the session's row is read again: a
 * budget raised meanwhile from elsewhere (the console, the API) is taken and the run goes on.
 */
async function checkBudgets(ctx: LoopContext): Promise<Ending | null> {
  const { state } = ctx;
  const use = {
    iterations: state.iteration,
    tokens: totalTokens(state.usage),
    costUsd: state.costUsd,
    runtimeMs: runtimeMs(state, ctx.now()),
  };
  if (!exceededBudget(state.session.budgets, use)) return null;
  const row = await ctx.deps.store.sessions.get(state.session.id);
  if (row && JSON.stringify(row.budgets) !== JSON.stringify(state.session.budgets))
    await commit(ctx, { type: "budgets-raised", budgets: row.budgets });
  const exceeded = exceededBudget(state.session.budgets, use);
  if (!exceeded) return null;
  report(ctx, { type: "budget.exceeded", data: exceeded });
  return { kind: "budget", budget: exceeded.budget };
}

/**
 * The answer joins the conversation: stored (redacted once, there), with the checklist marks it
 * streamed written and applied now, as the answer is kept. Returns its text, for the signals.
 */
async function keepAnswer(ctx: LoopContext, call: ModelCall, toolCalls: number): Promise<string> {
  const { response, streamed } = call;
  const checklist = streamed.at(-1)?.checklist;
  await commit(ctx, {
    type: "answered",
    response,
    steps: streamed,
    checklist: checklist && checklist !== ctx.state.checklist ? checklist : null,
  });
  const notes = streamed.flatMap((s) => (s.note ? [s.note] : []));
  if (response.stopReason === "max_tokens" && toolCalls === 0 && !response.truncatedTools?.length) {
    notes.push("Your last response was cut off at the output limit. Continue from where it stopped, in shorter steps.");
  }
  await commit(ctx, { type: "noted", notes });
  return textOf(ctx.state.live.at(-1)!.message);
}

function services(ctx: LoopContext): ToolServices {
  const { state, deps } = ctx;
  return {
    recall: async (query, limit) => {
      const hits = await deps.store.messages.search(state.session.id, query, {
        limit,
        excludeSeqs: seqsShownInFull(state.live, state.stubbed),
        kinds: ["conversation"],
      });
      return hits.map((h) => ({ seq: h.seq, iteration: h.iteration, role: h.role, text: messageText(h.message) }));
    },
    runGates: () => deps.gates.run(deps.control.signal),
  };
}

/** What task_complete came to: complete, or not (with the revision's hat change, or the run's end, the grader asked for). */
interface Completion {
  complete: boolean;
  revision?: { from: string; topic: string; message: string } | null;
  ending?: Ending;
}

/**
 * task_complete passed its gates: complete unless checklist items are open and not acknowledged, or
 * the grader finds acceptance criteria unmet (grading.ts).
 */
async function checkCompletion(ctx: LoopContext, execution: ExecutionResult, effects: SignalEffects): Promise<Completion | null> {
  const record = execution.records.find((r) => r.result.meta?.completion);
  if (!record) return null;
  const { passed, report: gates } = record.result.meta!.completion!;
  report(ctx, { type: "gate.result", data: { passed, checks: gates.checks.map(({ output: _output, ...check }) => check) } });
  await commitHealth(ctx, checkGate(ctx.state.health, passed));
  if (!passed) return { complete: false };
  const open = ctx.state.checklist.filter((i) => i.status !== "done" && i.status !== "skipped");
  if (open.length && !effects.acknowledged) {
    const reason = `checklist items not done: ${open.map((i) => `${i.id} (${i.status})`).join(", ")}`;
    report(ctx, { type: "completion.refused", data: { reason } });
    await commit(ctx, {
      type: "noted",
      notes: [
        `${COMPLETION_REFUSED} ${reason}. Finish them, or mark them CHECKLIST_FAILED with a reason and include ACKNOWLEDGE_FAILURES.`,
      ],
    });
    return { complete: false };
  }
  const grading = await gradeCompletion(ctx, gates);
  if (!grading || grading.kind === "satisfied") return { complete: true };
  if (grading.kind === "revise") return { complete: false, revision: grading.hatChange };
  if (grading.kind === "exhausted") return { complete: false, ending: grading.ending };
  return { complete: false };
}

/**
 * The tools' writes, kept before the turn is closed (fleet workers): a closed turn's work is then
 * always restorable by the runner that takes the session over. A failure to keep them is shown and
 * the run goes on; the next runner names what it could not restore.
 */
async function keepWrites(ctx: LoopContext): Promise<void> {
  const { git } = ctx.deps;
  if (!git.snapshot) return;
  try {
    await git.snapshot(ctx.state.session.worktreePath, ctx.state.iteration);
  } catch (error) {
    if (error instanceof LeaseLostError) throw error;
    report(ctx, { type: "error", data: { message: `the worktree's snapshot was not kept: ${errorLine(error)}`, fatal: false } });
  }
}

async function finishIteration(ctx: LoopContext, started: number): Promise<void> {
  await commit(ctx, { type: "iteration-finished", startedAt: started, at: ctx.now() });
}
