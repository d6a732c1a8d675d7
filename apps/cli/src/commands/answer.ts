import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type { Command } from "commander";
import type { SessionRecord } from "@hatloop/core";
import { fleetStore, type DbStore } from "@hatloop/db";
import { CliError, usageError } from "../errors.js";
import { shortId } from "../format.js";
import { printText } from "../output/print.js";
import { configFor, openConfiguredStore, resolveSession } from "../runtime.js";
import { isLive } from "../session/liveness.js";
import { readStdin } from "../stdin.js";
import { invocation } from "../invocation.js";

// `hatloop answer SESSION "..."`: the answer to the agent's question, from any terminal on any machine
// (it goes through the database). A run waiting for it picks it up within a second; a session whose
// run ended to wait (headless) gets it when resumed — a fleet session is queued again at once.

export async function answerAction(id: string, words: string[], _flags: unknown, command: Command): Promise<void> {
  process.exitCode = await answer(id, await answerText(words), command);
}

async function answerText(words: string[]): Promise<string> {
  const fromStdin = (words.length === 1 && words[0] === "-") || (words.length === 0 && !process.stdin.isTTY);
  if (words.length === 0 && !fromStdin)
    throw usageError(`no answer: give it as words (${invocation()} answer ID "use Postgres") or - to read stdin`);
  const text = (fromStdin ? await readStdin() : words.join(" ")).trim();
  if (!text) throw usageError("the answer is empty");
  return text;
}

async function answer(id: string, text: string, command: Command): Promise<number> {
  const config = configFor(command);
  const store = await openConfiguredStore(config);
  try {
    const session = await resolveSession(store, id);
    const result = await store.sessions.answer(session.id, text, `cli@${hostname()}`);
    if (result !== "answered") throw refusal(result, (await store.sessions.get(session.id)) ?? session);
    const sid = shortId(session.id);
    const taken = await deliveredOrLeft(store, session.id);
    if (taken === "delivered") printText(`answered: the run of session ${sid} goes on`);
    else if (taken === "live") printText(`answered; the run of session ${sid} takes it at its next look`);
    else if ((await fleetStore(store.database.db).get(session.id))?.repoUrl) return await queueAgain(store, config, session);
    else printText(`answered; the session goes on when resumed: ${invocation()} resume ${sid}`);
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * Whether the run took the answer: a waiting run looks once a second. A headless run that was just
 * ending to wait may still hold the session a moment, then leave the answer for the next run; so
 * this watches until the question is delivered or the runner has gone (at most a few seconds).
 */
export async function deliveredOrLeft(store: DbStore, id: string): Promise<"delivered" | "left" | "live"> {
  for (let i = 0; i < 25; i++) {
    const now = await store.sessions.get(id);
    if (!now?.question) return "delivered";
    if (!isLive(now)) return "left";
    await sleep(200);
  }
  return "live";
}

function refusal(result: "no-session" | "no-question" | "already-answered", session: SessionRecord): CliError {
  const sid = shortId(session.id);
  if (result === "already-answered")
    return new CliError(
      `session ${sid}'s question was already answered (${session.question?.answeredBy ?? "?"}): ${session.question?.answer ?? ""}`,
    );
  if (result === "no-session") return new CliError(`no session ${sid}`);
  return new CliError(`session ${sid} has no open question (it is ${session.status})`);
}

/** A fleet session that ended to wait goes back to the queue with its answer. */
async function queueAgain(store: DbStore, config: ReturnType<typeof configFor>, session: SessionRecord): Promise<number> {
  printText(`answered session ${shortId(session.id)}'s question`);
  const { requeue } = await import("./fleet.js");
  printText(await requeue(store, config, session, 10_000));
  return 0;
}
