import { MARKERS } from "@hatloop/context";
import { messageText } from "../context/message-text.js";
import type { Question } from "../shapes.js";
import { apply } from "./apply.js";
import { storeMessage, textBlock } from "./live.js";
import type { LoopContext } from "./loop-context.js";
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
  const { deps, state, emitter } = ctx;
  const id = state.session.id;
  await deps.store.sessions.update(id, { status: "waiting", question });
  emitter.emit("session.status", { status: "waiting", reason: question.text });
  const limit = ctx.config.maxWait ?? (ctx.interactive ? Infinity : 0);
  const started = ctx.now();
  for (;;) {
    const typed = deps.control.takeAnswer();
    if (typed !== null) await deps.store.sessions.answer(id, typed, "terminal");
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
      emitter.emit("budget.exceeded", { budget: "wait", limit, value: waited });
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
  const { deps, state, emitter } = ctx;
  const said = `The person running this session answered your question ("${question.text}"): ${question.answer}`;
  if (!state.live.some((entry) => messageText(entry.message).includes(said))) {
    const entry = await storeMessage(ctx, { role: "user", content: [textBlock(`${MARKERS.steer} ${said}`)] });
    apply(state, { type: "steered", entry, steering: [said] });
  }
  await deps.store.sessions.update(state.session.id, { status: "running", question: null });
  emitter.emit("question.answered", { question: question.text, answer: question.answer ?? "", answeredBy: question.answeredBy ?? "" });
  emitter.emit("session.status", { status: "running", reason: "answered" });
}
