import { describe, expect, it } from "vitest";
import { messageText } from "../context/message-text.js";
import { memoryStore } from "../store/memory-store.js";
import { runFixture, type Turn } from "../test-support/loop-fixture.js";
import { LoopControl } from "./control.js";

const ID = "s-0000-1111";
const asks: Turn = { text: "Two ways to go.", tools: [{ name: "ask_user", input: { question: "Postgres or SQLite?" } }] };
const finish: Turn[] = [
  { text: "EVENT:plan.complete go" },
  { text: "EVENT:implementation.done done" },
  { text: "EVENT:review.approved" },
  { tools: [{ name: "task_complete", input: { summary: "done" } }] },
];
const answerIn = (messages: Array<{ message: Parameters<typeof messageText>[0] }>) =>
  messages.filter((m) => messageText(m.message).includes('answered your question ("Postgres or SQLite?"): Postgres'));

describe("the agent asks the person (ask_user)", () => {
  it("headless: the run ends waiting (exit 4) with the question kept; answered from elsewhere, resume delivers it once", async () => {
    const first = await runFixture({ turns: [asks] });
    expect(first.outcome).toEqual({ status: "waiting", reason: "waiting for an answer", exitCode: 4 });
    expect(first.session).toMatchObject({ status: "waiting", question: { text: "Postgres or SQLite?", answer: null, iteration: 1 } });
    expect(first.of("session.status").map((e) => e.data.status)).toEqual(["running", "waiting"]);
    expect(messageText(first.messages.at(-1)!.message)).toContain("Asked. The run waits after this turn");
    expect(await first.store.checkpoints.latest(ID)).toMatchObject({ reason: "question" });

    expect(await first.store.sessions.answer(ID, "Postgres", "cli@laptop")).toBe("answered");
    const resumed = await runFixture({ turns: finish, store: first.store });
    expect(resumed.outcome.status).toBe("completed");
    expect(answerIn(resumed.messages)).toHaveLength(1);
    expect(messageText(resumed.model.requests[0]!.messages.at(-1)!)).toContain("Postgres");
    expect(resumed.of("question.answered").map((e) => e.data)).toEqual([
      { question: "Postgres or SQLite?", answer: "Postgres", answeredBy: "cli@laptop" },
    ]);
    expect(resumed.session.question).toBeNull();
  });

  it("headless, resumed before anyone answered: waits again without calling the model", async () => {
    const first = await runFixture({ turns: [asks] });
    const again = await runFixture({ turns: finish, store: first.store });
    expect(again.outcome.exitCode).toBe(4);
    expect(again.model.requests).toHaveLength(0);
    expect(again.session.question).toMatchObject({ text: "Postgres or SQLite?", answer: null });
  });

  it("in the terminal UI: waits, and an answer from another terminal (the database) lets the same run go on", async () => {
    const store = memoryStore();
    const answering = setInterval(() => {
      if (store.data.sessions.get(ID)?.status === "waiting") void store.sessions.answer(ID, "Postgres", "cli@other");
    }, 20);
    const run = await runFixture({ turns: [asks, ...finish], interactive: true, store, createSession: true }).finally(() =>
      clearInterval(answering),
    );
    expect(run.outcome.status).toBe("completed");
    expect(run.of("session.status").map((e) => `${e.data.status}:${e.data.reason ?? ""}`)).toContain("running:answered");
    expect(answerIn(run.messages)).toHaveLength(1);
    expect(run.of("question.answered")[0]!.data.answeredBy).toBe("cli@other");
  });

  it("in the terminal UI: the answer typed there (the ASK_USER: signal this time), one question per response", async () => {
    const control = new LoopControl();
    const store = memoryStore();
    const typing = setInterval(() => {
      if (store.data.sessions.get(ID)?.status === "waiting") control.answer("Postgres");
    }, 20);
    const turns: Turn[] = [{ text: "ASK_USER: Postgres or SQLite?\nASK_USER: and which port?" }, ...finish];
    const run = await runFixture({ turns, interactive: true, control, store, createSession: true }).finally(() => clearInterval(typing));
    expect(run.outcome.status).toBe("completed");
    expect(run.of("question.answered")[0]!.data).toMatchObject({ answer: "Postgres", answeredBy: "terminal" });
    expect(messageText(run.model.requests[1]!.messages.at(-1)!)).toContain('Ask one question at a time; "and which port?" was not asked.');
  });

  it("stops waiting at maxWait (budget:wait, exit 3, resumable), and on Ctrl-C", async () => {
    const waited = await runFixture({ turns: [asks], interactive: true, config: { maxWait: 300 } });
    expect(waited.outcome).toEqual({ status: "paused", reason: "budget:wait", exitCode: 3 });
    expect(waited.of("budget.exceeded")[0]!.data).toMatchObject({ budget: "wait", limit: 300 });
    expect(waited.session.question).toMatchObject({ answer: null });

    const control = new LoopControl();
    const store = memoryStore();
    const interrupting = setInterval(() => {
      if (store.data.sessions.get(ID)?.status === "waiting") control.interrupt();
    }, 20);
    const interrupted = await runFixture({ turns: [asks], interactive: true, control, store, createSession: true }).finally(() =>
      clearInterval(interrupting),
    );
    expect(interrupted.outcome).toMatchObject({ status: "paused", reason: "interrupted", exitCode: 130 });
  });

  it("delivers an answer once even when a run died between saying it and clearing the question", async () => {
    const first = await runFixture({ turns: [asks] });
    await first.store.sessions.answer(ID, "Postgres", "cli");
    // What a run killed inside deliverAnswer leaves: the answer said, the question still on the session.
    const said = '[Steering from the user] The person running this session answered your question ("Postgres or SQLite?"): Postgres';
    const seq = (await first.store.messages.lastSeq(ID)) + 1;
    const message = { role: "user" as const, content: [{ type: "text" as const, text: said }] };
    await first.store.messages.append(ID, [{ seq, iteration: 1, hat: "planner", kind: "conversation", message, tokenEstimate: 30 }]);
    const again = await runFixture({ turns: finish, store: first.store });
    expect(again.outcome.status).toBe("completed");
    expect(answerIn(again.messages)).toHaveLength(1);
    expect(again.session.question).toBeNull();
  });
});
