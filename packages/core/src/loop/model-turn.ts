import { errorMessage } from "@hatloop/context";
import { ModelError, type ContextOverflow, type ModelRequest, type ModelResponse } from "../ports/model.js";
import { checklistSet } from "./checklist-events.js";
import { commit, report } from "./commit.js";
import type { LoopContext } from "./loop-context.js";
import { callModel, isAbort, type ModelCall } from "./model-call.js";
import { failureFrom, type Ending } from "./outcomes.js";
import { prepareRequest } from "./request.js";
import { asUsageLimit, awaitUsageLimit } from "./usage-limit.js";

// The model's answer for one iteration, after doing what the API's answers ask for:
// - "prompt is too long: N tokens > M maximum" (400) or request_too_large (413) is a measurement,
//   not a fault: compact to fit and ask again, a bounded number of times, and never the same
//   request (or a larger one) again: when compaction cannot make it smaller, the run stops, resumably;
// - a tool call cut off by the output limit: ask again once with the model's maximum output;
// - the account's usage limit: wait for its reset and ask again, or stop (usage-limit.ts).
// Every attempt is paid for and counted; an answer asked again for is archived, never sent back,
// and what it streamed (checklist marks) is dropped with it.

/** Compactions after an overflow before the iteration gives up (a resume starts the count again). */
const MAX_OVERFLOW_RETRIES = 3;

/** What asking the model came to: an answer to keep, or the end of the run. */
export type ModelTurn = { kind: "answered"; call: ModelCall } | { kind: "ended"; ending: Ending };

export async function takeModelTurn(ctx: LoopContext): Promise<ModelTurn> {
  let maxTokens = ctx.config.maxOutputTokens;
  let overflow: ContextOverflow | undefined;
  const announced = new Set<number>();
  let refused: { size: number; error: unknown } | null = null; // the last request refused as too long
  for (let overflows = 0; ;) {
    const request = await prepareRequest(ctx, maxTokens, overflow);
    if (!request) return { kind: "ended", ending: { kind: "interrupted" } };
    overflow = undefined;
    // Weighed only after a refusal: weighing serialises the whole request, on every call otherwise.
    const size: number | null = refused ? requestSize(request) : null;
    if (refused && size !== null && size >= refused.size) {
      const note = `compaction could not make the request smaller than the one refused (${size.toLocaleString("en-US")} characters); resume with a model whose window is larger, or a shorter task`;
      return { kind: "ended", ending: await modelFailure(ctx, refused.error, overflows, note) };
    }
    let call: ModelCall;
    try {
      call = await callModel(ctx, request);
    } catch (error) {
      const limited = asUsageLimit(error);
      if (limited) {
        const ending = await awaitUsageLimit(ctx, limited, announced);
        if (ending) return { kind: "ended", ending };
        continue;
      }
      const measured = error instanceof ModelError && !isAbort(error) ? error.overflow : null;
      if (measured && ctx.deps.context && overflows < MAX_OVERFLOW_RETRIES) {
        overflows++;
        refused = { size: size ?? requestSize(request), error };
        overflow = await takeMeasurement(ctx, measured, overflows);
        continue;
      }
      return { kind: "ended", ending: await modelFailure(ctx, error, overflows) };
    }
    await recordAnswer(ctx, call.response);
    const raised = await raisedOutputLimit(ctx, call.response, maxTokens, request.model);
    if (raised === null) return { kind: "answered", call };
    await commit(ctx, { type: "archived", message: call.response.message });
    if (call.streamed.some((s) => s.write)) report(ctx, checklistSet(ctx.state.checklist));
    maxTokens = raised;
  }
}

/** Usage and cost of every answer, kept or not, and what the API measured of the prompt. */
async function recordAnswer(ctx: LoopContext, response: ModelResponse): Promise<void> {
  await commit(ctx, { type: "paid", usage: response.usage, costUsd: response.costUsd });
  const content = typeof response.message.content === "string" ? [] : response.message.content;
  const textChars = content.reduce((n, b) => n + (b.type === "text" ? b.text.length : 0), 0);
  const toolCalls = content.filter((b) => b.type === "tool_use").length;
  report(ctx, {
    type: "model.response",
    data: { stopReason: response.stopReason, usage: response.usage, costUsd: response.costUsd, toolCalls, textChars },
  });
}

/** The model's maximum output when a tool call was cut below it; null to keep the answer as it is. */
async function raisedOutputLimit(ctx: LoopContext, response: ModelResponse, maxTokens: number, model: string): Promise<number | null> {
  const cut = response.stopReason === "max_tokens" ? (response.truncatedTools ?? []) : [];
  if (cut.length === 0) return null;
  const ceiling = ctx.deps.model.maxOutputTokens?.(model) ?? maxTokens;
  const retryWith = ceiling > maxTokens ? ceiling : null;
  report(ctx, { type: "model.truncated", data: { tools: cut, maxTokens, retryWith } });
  if (retryWith === null) {
    const note = `Your call to ${cut.join(", ")} was cut off at the output limit (${maxTokens} tokens, this model's maximum) and was not run. Do it in smaller pieces: a shorter file per write, or several edits instead of one.`;
    await commit(ctx, { type: "noted", notes: [note] });
  }
  return retryWith;
}

/** An overflow tells the real prompt size (and the model's real window): the guard works from it. */
async function takeMeasurement(ctx: LoopContext, overflow: ContextOverflow, attempt: number): Promise<ContextOverflow> {
  const { state } = ctx;
  // The configured window may be larger than what this model (or this account) allows.
  const smaller = overflow.maxTokens !== null && overflow.maxTokens < state.session.contextWindow ? overflow.maxTokens : null;
  await commit(ctx, {
    type: "overflowed",
    promptTokens: overflow.promptTokens,
    maxTokens: overflow.maxTokens,
    contextWindow: smaller,
    attempt,
  });
  return overflow;
}

/** What a request weighs as sent: what the API counts, in characters. */
function requestSize(request: ModelRequest): number {
  return JSON.stringify([request.system, request.tools, request.messages]).length;
}

/** A model call that failed for good: the iteration did not happen and is redone on resume. */
async function modelFailure(ctx: LoopContext, error: unknown, overflows: number, note?: string): Promise<Ending> {
  await commit(ctx, { type: "iteration-abandoned" }); // events keep the iteration the user saw start
  if (isAbort(error)) return { kind: "interrupted" };
  const base = errorMessage(error);
  const message = note ? `${base} (${note})` : overflows > 0 ? `${base} (still too large after ${overflows} compactions)` : base;
  report(ctx, { type: "error", data: { message, fatal: true } });
  return {
    kind: "failed",
    reason: `model: ${message}`,
    failure: failureFrom(ctx, new ModelError(message, (error as ModelError).status ?? null), "model call"),
  };
}
