import { MARKERS } from "@hatloop/context";
import { messageText } from "../context/message-text.js";
import type { Question } from "../shapes.js";
import { commit, report } from "./commit.js";
import type { LoopContext } from "./loop-context.js";
import { textBlock } from "./text-block.js";
import type { Ending } from "./outcomes.js";

// The agent asked the person a question (ask_user, ASK_USER:). The question is kept on the session,
// where anyone can answer it: the TUI here, or `hatloop answer` in any terminal on any machine. A run
// someone watches waits for the answer (up to maxWait, if set); a headless one waits only up to
// maxWait, so it never holds a terminal: an unanswered question ends the run, resumably.

const POLL_MS = 1_000;

/** Records the question, then waits for its answer; null when the loop goes on (answered). */
export async function askUser(ctx: LoopContext, text: string): Promise<Ending | null> {
  const question: Question = {
    text,
    askedAt: new Date(ctx.now()).toISOString(),
    iteration: ctx.state.iteration,
    answer: null,
    answeredAt: null,
    answeredBy: null,
  };
  return waitForAnswer(ctx, question);
}

/** A resumed session with a question: deliver its answer, or wait for one again. */
export async function resumeQuestion(ctx: LoopContext, question: Question): Promise<Ending | null> {
  if (question.answer === null) return waitForAnswer(ctx, question);
  await deliverAnswer(ctx, question);
  return null;
}

async function waitForAnswer(ctx: LoopContext, question: Question): Promise<Ending | null> {
  const { deps, state } = ctx;
  const id = state.session.id;
  await commit(ctx, { type: "question-asked", question });
  const limit = ctx.config.maxWait ?? (ctx.interactive ? Infinity : 0);
  const started = ctx.now();
  for (;;) {
    const typed = deps.control.takeAnswer();
    if (typed !== null) await commit(ctx, { type: "answer-typed", answer: typed });
    const current = (await deps.store.sessions.get(id))?.question;
    if (current?.answer != null) {
      await deliverAnswer(ctx, current);
      return null;
    }
    if (deps.control.interrupted) return { kind: "interrupted" };
    if (deps.control.stopRequested) return { kind: "stopped-by-user" };
    const waited = ctx.now() - started;
    if (waited >= limit) {
      if (limit === 0) return { kind: "waiting" };
      report(ctx, { type: "budget.exceeded", data: { budget: "wait", limit, value: waited } });
      return { kind: "budget", budget: "wait" };
    }
    await deps.control.nap(Math.min(POLL_MS, limit - waited));
  }
}

/**
 * The answer joins the conversation as the person's instruction (kept through compaction, like
 * steering), then the question is cleared. Delivered once: a run killed between the two finds the
 * answer already said and only clears the question.
 */
async function deliverAnswer(ctx: LoopContext, question: Question): Promise<void> {
  const text = `The person running this session answered your question ("${question.text}"): ${question.answer}`;
  const already = ctx.state.live.some((entry) => messageText(entry.message).includes(text));
  const said = already ? null : { text, message: { role: "user" as const, content: [textBlock(`${MARKERS.steer} ${text}`)] } };
  await commit(ctx, { type: "answer-delivered", question, said });
}
