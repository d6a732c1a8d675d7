import { hostname } from "node:os";
import type { ActionResult, ConsoleAction } from "@hatloop/console";
import type { HatloopConfig, SessionRecord } from "@hatloop/core";
import { fleetStore, type DbStore } from "@hatloop/db";
import { deliveredOrLeft } from "../commands/answer.js";
import { requeue, stopSession } from "../commands/fleet.js";
import { checkResumable } from "../commands/resume.js";
import { applyBudgets } from "../session/budgets.js";
import { CliError } from "../errors.js";
import { shortId } from "../format.js";
import { resolveSession } from "../runtime.js";
import { isLive } from "../session/liveness.js";
import { rerunSession, retrySession } from "../fleet/actions.js";
import { resumeHere } from "./resume-here.js";

// What the console's buttons do, through the same functions as the commands that do it in a terminal
// (stop, resume, answer, resume --max-..., retry, rerun). A refusal the command would print is the action's answer.
// The terminal's home screen (ui/home.ts) acts through them too; `origin` says who answered.

export function consoleActions(
  store: DbStore,
  config: HatloopConfig,
  origin: "console" | "tui" = "console",
): (action: ConsoleAction) => Promise<ActionResult> {
  return async (action) => {
    try {
      const session = await resolveSession(store, action.sessionId);
      switch (action.kind) {
        case "stop": {
          const outcome = await stopSession(store, config, session);
          return { ok: outcome.action !== "nothing", message: `session ${shortId(session.id)}: ${outcome.message}` };
        }
        case "resume":
          return await goOn(store, config, session);
        case "answer":
          return await answer(store, config, session, action.answer, origin);
        case "raise-budget":
          return await raise(store, config, session, action.raise);
        case "retry":
          await retrySession(store, config, session.id);
          return { ok: true, message: `session ${shortId(session.id)} is queued again, its start attempts from zero` };
        case "rerun": {
          const { id } = await rerunSession(store, config, session.id);
          return { ok: true, message: `session ${shortId(id)} runs the task of ${shortId(session.id)} again`, sessionId: id };
        }
      }
    } catch (error) {
      if (error instanceof CliError) return { ok: false, message: error.message };
      throw error;
    }
  };
}

/** Resume: a fleet session goes back to the queue, any other runs again on this machine. */
async function goOn(store: DbStore, config: HatloopConfig, session: SessionRecord): Promise<ActionResult> {
  const budget = /^budget:(\w+)$/.exec(session.stopReason ?? "")?.[1];
  if (session.status === "paused" && budget && budget !== "wait")
    return { ok: false, message: `session ${shortId(session.id)} stopped at its ${budget} budget: raise it to let it go on` };
  checkResumable(session, {});
  if ((await fleetStore(store.database.db).get(session.id))?.repoUrl)
    return { ok: true, message: await requeue(store, config, session, 10_000) };
  return resumeHere(store, config, session);
}

async function answer(store: DbStore, config: HatloopConfig, session: SessionRecord, text: string, origin: string): Promise<ActionResult> {
  const sid = shortId(session.id);
  const result = await store.sessions.answer(session.id, text, `${origin}@${hostname()}`);
  if (result === "already-answered") return { ok: false, message: `session ${sid}'s question was already answered` };
  if (result !== "answered") return { ok: false, message: `session ${sid} has no open question` };
  const taken = await deliveredOrLeft(store, session.id);
  if (taken !== "left") return { ok: true, message: `answered: the run of session ${sid} goes on` };
  const now = (await store.sessions.get(session.id)) ?? session;
  const went = await goOn(store, config, now);
  return { ...went, message: `answered; ${went.message}` };
}

/** More of a budget, counted from what the session has used; a session paused on it goes on. */
async function raise(
  store: DbStore,
  config: HatloopConfig,
  session: SessionRecord,
  raise: { maxIterations?: number | null; maxCostUsd?: number | null },
): Promise<ActionResult> {
  const sid = shortId(session.id);
  if (session.status === "completed") return { ok: false, message: `session ${sid} is completed` };
  const stoppedOn = session.status === "paused" && !isLive(session) ? /^budget:(\w+)$/.exec(session.stopReason ?? "")?.[1] : undefined;
  const given = { iterations: raise.maxIterations, cost: raise.maxCostUsd }[stoppedOn ?? ""];
  if (stoppedOn && stoppedOn !== "wait" && given == null)
    return {
      ok: false,
      message: `session ${sid} stopped at its ${stoppedOn} budget: raise that one (hatloop resume ${sid} --max-${stoppedOn} ...)`,
    };
  const raised = await applyBudgets(store, session, {
    ...(raise.maxIterations == null ? {} : { maxIterations: raise.maxIterations }),
    ...(raise.maxCostUsd == null ? {} : { maxCost: raise.maxCostUsd }),
  });
  const limits = `${raised.budgets.maxIterations ?? "∞"} iterations, $${raised.budgets.maxCostUsd?.toFixed(2) ?? "∞"}`;
  if (!stoppedOn || stoppedOn === "wait")
    return {
      ok: true,
      message: `session ${sid}'s budget is now ${limits}${isLive(session) ? "; its run goes on past the old limit" : ""}`,
    };
  // No longer stopped by that budget: a resume (here or by a worker) finds nothing to refuse.
  await store.sessions.update(session.id, { stopReason: null });
  const went = await goOn(store, config, { ...raised, stopReason: null });
  return { ...went, message: `budget now ${limits}; ${went.message}` };
}
