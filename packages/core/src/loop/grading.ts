import { errorLine } from "../text/error-line.js";
import { REVISION_TOPIC, revisionHat } from "../hats/router.js";
import { ModelError, toolUseBlocks, type ModelRequest, type ModelResponse } from "../ports/model.js";
import type { GateReport } from "../ports/tools.js";
import { acceptanceCriteria } from "../prompt/criteria.js";
import { graderMessage, verdictsOf, VERDICTS_TOOL, verdictsTool } from "../prompt/grader.js";
import { revisionsOf } from "../state/loop-state.js";
import { LeaseLostError } from "../store/port.js";
import type { Verdict } from "../shapes.js";
import { commit, report } from "./commit.js";
import { COMPLETION_REFUSED } from "./completion.js";
import type { LoopContext } from "./loop-context.js";
import type { Ending } from "./outcomes.js";

// Done-ness judged by someone other than the worker. After task_complete's gates pass, a task with
// acceptance criteria is graded by a fresh context (the grader: its own prompt and model, the task,
// the criteria, the diff against the base and the gates' results, nothing of the worker's
// conversation) through the same model port, paid for in the session's budget. Every criterion met:
// the task completes. Unmet ones go back to the loop as a revision, routed as a rejected review is
// (to the hat that triggers on review.rejected), up to grader.maxRevisions; past that the run stops
// (grader:max_revisions_reached, resumable). A grader that cannot judge (an API failure, an answer
// without usable verdicts) refuses this completion without counting a revision.

/** What grading a completion came to. */
export type Grading =
  | { kind: "satisfied" }
  | { kind: "revise"; hatChange: { from: string; topic: string; message: string } | null }
  | { kind: "exhausted"; ending: Ending }
  | { kind: "unjudged" };

/** The grader's answer is short: a verdict and a reason per criterion (8,192 is within every current model's limit). */
const GRADER_MAX_TOKENS = 8_192;

/** Grades the task's acceptance criteria; null when there is nothing to grade (no criteria, or no grader wired). */
export async function gradeCompletion(ctx: LoopContext, gates: GateReport): Promise<Grading | null> {
  const { state, deps } = ctx;
  const criteria = acceptanceCriteria(state.session.task);
  if (!deps.grader || criteria.length === 0) return null;
  const round = (state.grades.at(-1)?.round ?? 0) + 1;
  report(ctx, { type: "grader.start", data: { round, criteria: criteria.length, model: deps.grader.model } });
  const diff = await deps.grader.diff().catch((error: unknown) => `(the diff could not be read: ${errorLine(error)})`);
  const request: ModelRequest = {
    model: deps.grader.model,
    system: [deps.grader.prompt],
    messages: [{ role: "user", content: graderMessage({ task: state.session.task, criteria, gates, diff }) }],
    tools: [verdictsTool()],
    toolChoice: VERDICTS_TOOL,
    maxTokens: GRADER_MAX_TOKENS,
    purpose: "grader",
    signal: deps.control.signal,
  };
  let response: ModelResponse;
  try {
    response = await deps.model.complete(request, (event) => {
      if (event.type === "retry") {
        const { attempt, waitMs, status, reason } = event;
        report(ctx, { type: "model.retry", data: { attempt, waitMs, status, reason: `grader: ${reason}` } });
      } else if (event.type === "notice") report(ctx, { type: "model.notice", data: { message: event.message } });
    });
  } catch (error) {
    if (error instanceof LeaseLostError) throw error;
    const aborted = error instanceof ModelError && error.aborted;
    return unjudged(ctx, aborted ? "the run was interrupted while it judged" : errorLine(error));
  }
  await commit(ctx, { type: "paid", usage: response.usage, costUsd: response.costUsd });
  report(ctx, {
    type: "model.response",
    data: {
      stopReason: response.stopReason,
      usage: response.usage,
      costUsd: response.costUsd,
      toolCalls: toolUseBlocks(response).length,
      textChars: 0,
    },
  });
  const call = toolUseBlocks(response).find((b) => b.name === VERDICTS_TOOL);
  const cut = response.truncatedTools?.includes(VERDICTS_TOOL) ? " (its call was cut at the output limit)" : "";
  const answer = call ? verdictsOf(call.input, criteria) : { problem: `it did not call ${VERDICTS_TOOL}${cut}` };
  if ("problem" in answer) return unjudged(ctx, `its answer was unusable: ${answer.problem}`);

  const satisfied = answer.verdicts.every((v) => v.met);
  const maxRevisions = ctx.config.grader.maxRevisions;
  const grade = {
    round,
    iteration: state.iteration,
    satisfied,
    verdicts: answer.verdicts,
    model: response.model,
    usage: response.usage,
    costUsd: response.costUsd,
  };
  await commit(ctx, { type: "graded", grade, maxRevisions });
  if (satisfied) return { kind: "satisfied" };

  const unmet = ctx.state.grades.at(-1)!.verdicts.filter((v) => !v.met);
  const revisions = revisionsOf(ctx.state.grades);
  const exhausted = revisions > maxRevisions;
  const said = unmetList(unmet);
  const next = exhausted
    ? `The revisions allowed (${maxRevisions}) are used up: the run stops here, resumable.`
    : `Revision ${revisions} of ${maxRevisions}: meet them, then call task_complete again.`;
  await commit(ctx, {
    type: "noted",
    notes: [`${COMPLETION_REFUSED} the grader found ${unmet.length} of ${criteria.length} acceptance criteria unmet. ${next}\n${said}`],
  });
  if (exhausted)
    return { kind: "exhausted", ending: { kind: "revisions-exhausted", revisions, unmet: unmet.length, criteria: criteria.length } };
  return { kind: "revise", hatChange: await routeRevision(ctx, said) };
}

/** Sends the work to the hat a rejected review goes to (unless it is worn already). */
async function routeRevision(ctx: LoopContext, said: string): Promise<{ from: string; topic: string; message: string } | null> {
  const to = revisionHat(ctx.deps.hats);
  const from = ctx.state.hat.name;
  if (!to || to.name === from) return null;
  await commit(ctx, { type: "routed", to, from, topic: REVISION_TOPIC });
  return { from, topic: REVISION_TOPIC, message: `The grader of the acceptance criteria sends the work back:\n${said}` };
}

async function unjudged(ctx: LoopContext, why: string): Promise<Grading> {
  report(ctx, { type: "error", data: { message: `grader: ${why}`, fatal: false } });
  await commit(ctx, {
    type: "noted",
    notes: [`${COMPLETION_REFUSED} the grader could not judge the acceptance criteria (${why}). Call task_complete again.`],
  });
  return { kind: "unjudged" };
}

function unmetList(unmet: readonly Verdict[]): string {
  return unmet.map((v) => `- ${v.criterion}: ${v.reason}`).join("\n");
}
