import { textOf } from "@hatloop/context";
import { hatToolNames } from "../hats/hat.js";
import { routeEvent } from "../hats/router.js";
import { toolUseBlocks, type ModelRequest } from "../ports/model.js";
import type { GateReport, ToolServices } from "../ports/tools.js";
import { systemParts } from "../prompt/build.js";
import { parseSignals } from "../signals/parse.js";
import { applySignals, type SignalEffects } from "./apply-signals.js";
import { exceededBudget } from "./budgets.js";
import { applyCompaction } from "./compaction.js";
import type { LoopOutcome } from "./deps.js";
import { executeToolCalls, type ExecutionResult } from "./executor.js";
import { appendLive, nonEmptyAssistant } from "./live.js";
import { LOOP_TOOL_SPECS } from "./loop-tools.js";
import type { LoopContext } from "./loop-context.js";
import { callModel, isAbort } from "./model-call.js";
import { endRun, failureFrom } from "./outcomes.js";
import { addUsage, runtimeMs, totalTokens } from "./state.js";
import { closeTurn } from "./turn-end.js";
import { mergeAdjacent } from "./merge-adjacent.js";
import { messageText } from "../context/message-text.js";
import { seqsShownInFull } from "../context/recall-block.js";
import { redactMessage } from "../context/redact-message.js";
import { handleNotices, recordHealth } from "./health-notes.js";

/** One iteration: control → budgets → health → context guard → model → tools → signals → routing → checkpoint. */
export async function runIteration(ctx: LoopContext): Promise<LoopOutcome | null> {
  const { state, deps, emitter } = ctx;
  const stopped = await checkControl(ctx);
  if (stopped) return stopped;
  const use = { iterations: state.iteration, tokens: totalTokens(state.usage), costUsd: state.costUsd, runtimeMs: runtimeMs(state, ctx.now()) };
  const exceeded = exceededBudget(state.session.budgets, use);
  if (exceeded) {
    emitter.emit("budget.exceeded", exceeded);
    return endRun(ctx, "paused", `budget:${exceeded.budget}`, 3, "budget");
  }
  if (state.healthStop) return endRun(ctx, "stopped", `health:${state.healthStop}`, 1, "pause");

  state.iteration++;
  emitter.iteration = state.iteration;
  const started = ctx.now();
  emitter.emit("iteration.start", { hat: state.hat.name });

  const request = await prepareRequest(ctx);
  if (!request) return endRun(ctx, "paused", "interrupted", 130, "pause");
  let call;
  try {
    call = await callModel(ctx, request);
  } catch (error) {
    state.iteration--; // the iteration did not happen; it will be redone on resume
    emitter.iteration = state.iteration;
    if (isAbort(error)) return endRun(ctx, "paused", "interrupted", 130, "pause");
    emitter.emit("error", { message: (error as Error).message, fatal: true });
    return endRun(ctx, "failed", `model: ${(error as Error).message}`, 1, "failure", failureFrom(ctx, error, "model call"));
  }
  const { response, detector } = call;
  state.usage = addUsage(state.usage, response.usage);
  state.costUsd += response.costUsd;
  await deps.store.sessions.addUsage(state.session.id, response.usage, response.costUsd);
  const calls = toolUseBlocks(response);
  const assistant = redactMessage(nonEmptyAssistant(response.message));
  const text = textOf(assistant);
  emitter.emit("model.response", { stopReason: response.stopReason, usage: response.usage, costUsd: response.costUsd, toolCalls: calls.length, textChars: text.length });
  await appendLive(ctx, assistant);
  state.anchor = { usage: response.usage, entries: state.live.length - 1 };
  // What the API reported, until a context hook measures more precisely at the end of the turn.
  const u = response.usage;
  state.contextTokens = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens + u.outputTokens;
  if (response.stopReason === "max_tokens" && calls.length === 0) {
    state.notes.push("Your last response was cut off at the output limit. Continue from where it stopped, in shorter steps.");
  }

  const signals = detector.unhandled(parseSignals(text, ctx.knownTopics));
  const callsSeen = state.seenCalls.size;
  const execution = calls.length ? await executeToolCalls(ctx, calls, services(ctx)) : null;
  const effects = await applySignals(ctx, [...signals, ...(execution?.signals ?? [])]);
  recordHealth(ctx, execution);
  const completion = execution ? await checkCompletion(ctx, execution, effects) : null;
  const hatChange = completion ? null : route(ctx, effects);

  const { warnCrossed } = await closeTurn(ctx, { results: execution?.blocks ?? [], hatChange });
  const progressed =
    effects.progressed || hatChange !== null || state.seenCalls.size > callsSeen || Boolean(execution?.records.some((r) => r.result.meta?.changedFiles?.length));
  handleNotices(ctx, ctx.health.afterIteration(progressed));
  await finishIteration(ctx, started);
  if (completion?.complete) return endRun(ctx, "completed", "task complete: quality gates passed", 0, "completion");
  if (hatChange) await ctx.checkpointer.save(state, "hat-change");
  if (warnCrossed) {
    state.warnCheckpointed = true;
    await ctx.checkpointer.save(state, "warn-threshold");
  }
  if (state.iteration % ctx.config.checkpoint.interval === 0) await ctx.checkpointer.save(state, "interval");
  return null;
}

async function checkControl(ctx: LoopContext): Promise<LoopOutcome | null> {
  const { control } = ctx.deps;
  let held = false;
  await control.waitWhilePaused(() => {
    held = true;
    ctx.emitter.emit("session.status", { status: "paused", reason: "paused by the user" });
  });
  if (held && !control.interrupted && !control.stopRequested) ctx.emitter.emit("session.status", { status: "running", reason: "continued by the user" });
  if (control.interrupted) return endRun(ctx, "paused", "interrupted", 130, "pause");
  if (control.stopRequested) return endRun(ctx, "paused", "stopped by the user", 130, "pause");
  return null;
}

/** Context guard, then the request for the current hat; null when interrupted meanwhile. */
async function prepareRequest(ctx: LoopContext): Promise<ModelRequest | null> {
  const { state, deps } = ctx;
  const allowed = hatToolNames(state.hat, ctx.toolNames);
  const tools = [...deps.tools.filter((t) => allowed.has(t.spec.name)).map((t) => t.spec), ...LOOP_TOOL_SPECS];
  const system = systemParts(deps.prompts, state.hat, ctx.memories);
  state.request = { system, tools };
  if (deps.context) {
    const compacted = await applyCompaction(ctx);
    if (compacted === "interrupted") return null;
  }
  return { model: state.session.model, system, messages: mergeAdjacent(state.live.map((e) => e.message)), tools, maxTokens: ctx.config.maxOutputTokens, signal: deps.control.signal };
}

function services(ctx: LoopContext): ToolServices {
  const { state, deps } = ctx;
  return {
    recall: async (query, limit) => {
      const hits = await deps.store.messages.search(state.session.id, query, { limit, excludeSeqs: seqsShownInFull(state.live, state.stubbed), kinds: ["conversation"] });
      return hits.map((h) => ({ seq: h.seq, iteration: h.iteration, role: h.role, text: messageText(h.message) }));
    },
    runGates: () => deps.gates.run(deps.control.signal),
  };
}

/** task_complete passed its gates: complete unless checklist items are open and not acknowledged. */
async function checkCompletion(ctx: LoopContext, execution: ExecutionResult, effects: SignalEffects): Promise<{ complete: boolean } | null> {
  const record = execution.records.find((r) => r.result.meta?.completion);
  if (!record) return null;
  const { passed, report } = record.result.meta!.completion! as { passed: boolean; report: GateReport };
  ctx.emitter.emit("gate.result", { passed, checks: report.checks.map(({ output: _output, ...check }) => check) });
  handleNotices(ctx, ctx.health.afterGate(passed));
  if (!passed) return { complete: false };
  const open = ctx.state.checklist.filter((i) => i.status !== "done" && i.status !== "skipped");
  if (open.length && !effects.acknowledged) {
    const reason = `checklist items not done: ${open.map((i) => `${i.id} (${i.status})`).join(", ")}`;
    ctx.emitter.emit("completion.refused", { reason });
    ctx.state.notes.push(`Completion refused: ${reason}. Finish them, or mark them CHECKLIST_FAILED with a reason and include ACKNOWLEDGE_FAILURES.`);
    return { complete: false };
  }
  return { complete: true };
}

function route(ctx: LoopContext, effects: SignalEffects): { from: string; topic: string; message: string } | null {
  if (!effects.event) return null;
  const { state, emitter } = ctx;
  const result = routeEvent(ctx.deps.hats, state.hat, effects.event.topic);
  if (result.kind === "rejected") {
    emitter.emit("route.rejected", { hat: state.hat.name, topic: effects.event.topic, reason: result.reason });
    state.notes.push(`EVENT:${effects.event.topic} was not routed: ${result.reason}.`);
    return null;
  }
  const from = state.hat.name;
  state.hat = result.to;
  // Bounded so checkpoints stay the same size however long the session runs.
  state.hatHistory = [...state.hatHistory, { hat: result.to.name, iteration: state.iteration, topic: effects.event.topic }].slice(-50);
  emitter.emit("hat.change", { from, to: result.to.name, topic: effects.event.topic });
  const payload = effects.event.payload as { message?: string } | undefined;
  const message = typeof payload?.message === "string" ? `Message from the ${from}: ${payload.message}` : payload ? `Payload: ${JSON.stringify(payload)}` : "";
  return { from, topic: effects.event.topic, message };
}

async function finishIteration(ctx: LoopContext, started: number): Promise<void> {
  const { state, deps, emitter } = ctx;
  const now = ctx.now();
  await deps.store.sessions.update(state.session.id, {
    iteration: state.iteration,
    hat: state.hat.name,
    contextTokens: state.contextTokens,
    runtimeMs: runtimeMs(state, now),
    heartbeatAt: new Date(now),
  });
  emitter.emit("usage.total", { usage: state.usage, costUsd: state.costUsd, contextTokens: state.contextTokens, contextWindow: state.session.contextWindow });
  emitter.emit("iteration.end", { hat: state.hat.name, durationMs: now - started });
}
