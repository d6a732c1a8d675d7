import type { ConsoleAction } from "@hatloop/console";
import type { HatloopConfig } from "@hatloop/core";
import type { DbStore } from "@hatloop/db";
import type { ListAction, ListRow, ListSource, ListState } from "@hatloop/tui";
import { formatAge, formatCost } from "../format.js";
import { listSessions, type ListedSession, type SessionQuery } from "../fleet/session-list.js";
import { sessionsInStore } from "../fleet/sessions-in-store.js";
import { consoleActions } from "../serve/console-actions.js";
import { describeRemoval, removeSessions } from "../session/removal.js";
import { resolveSession } from "../runtime.js";
import { CliError } from "../errors.js";
import { printText } from "../output/print.js";
import { renderSession, sessionDetails } from "../commands/show.js";
import { watchSession } from "../commands/watch.js";

// The home screen (`hatloop`, `hatloop ls` on a terminal): every session, local and fleet, live.
// Its actions go through the functions the commands use: pause, resume, answer and a budget raised
// as the web console's buttons do (console-actions.ts: `hatloop stop`, `resume`, `answer`,
// `resume --max-cost`), remove as `hatloop rm` does (refusing what rm refuses without --force).

/** Opens the home screen until the user quits; Enter on a live session watches it, and q comes back. */
export async function homeScreen(store: DbStore, config: HatloopConfig, query: SessionQuery): Promise<void> {
  const { chooseSession } = await import("@hatloop/tui");
  const act = consoleActions(store, config, "tui");
  const source: ListSource = {
    load: async () => {
      const now = new Date();
      const sessions = await listSessions(sessionsInStore(store), query);
      const fleet = sessions.some((s) => s.fleet);
      return sessions.map((s) => homeRow(s, now, fleet));
    },
    details: async (id) => {
      const session = await store.sessions.get(id);
      return session ? renderSession(await sessionDetails(store, session)) : `session ${id} is gone`;
    },
    act: async (action) => (action.kind === "remove" ? remove(store, action.id) : act(consoleAction(action))),
  };
  let state: ListState | undefined;
  for (;;) {
    const chosen = await chooseSession(source, state);
    state = chosen.state;
    if (!chosen.choice) return;
    const session = await store.sessions.get(chosen.choice.id);
    if (!session) continue;
    if (chosen.choice.action === "watch") await watchSession(store, session, "tui");
    else printText(renderSession(await sessionDetails(store, session)));
  }
}

function consoleAction(action: Exclude<ListAction, { kind: "remove" }>): ConsoleAction {
  const sessionId = action.id;
  switch (action.kind) {
    case "answer":
      return { kind: action.kind, sessionId, answer: action.answer };
    case "raise-budget":
      return { kind: action.kind, sessionId, raise: { maxCostUsd: action.maxCostUsd } };
    case "stop":
    case "resume":
      return { kind: action.kind, sessionId };
  }
}

async function remove(store: DbStore, id: string): Promise<{ ok: boolean; message: string }> {
  try {
    const session = await resolveSession(store, id);
    const [removal] = await removeSessions(store, [session], { force: false, dryRun: false });
    return { ok: !removal!.refused, message: describeRemoval(removal!, session).replace(/\n\s*/g, "; ") };
  } catch (error) {
    if (error instanceof CliError) return { ok: false, message: error.message };
    throw error;
  }
}

/** A session as the home screen lists it: `ls --plain`'s columns, its question, its cost figures. */
export function homeRow(s: ListedSession, now: Date, fleet: boolean): ListRow {
  const budget = s.budgets.maxCostUsd;
  return {
    id: s.id,
    status: s.status,
    hat: s.hat,
    iteration: s.budgets.maxIterations ? `${s.iteration}/${s.budgets.maxIterations}` : String(s.iteration),
    cost: budget === null ? formatCost(s.costUsd) : `${formatCost(s.costUsd)}/${formatCost(budget)}`,
    updated: formatAge(s.updatedAt, now),
    title: s.title,
    live: s.live,
    question: s.question && s.question.answer === null ? s.question.text : null,
    costs: { costUsd: s.costUsd, maxCostUsd: budget, runtimeMs: s.runtimeMs, iteration: s.iteration, usage: s.usage },
    ...(fleet ? { worker: s.fleet?.worker ?? "-" } : {}),
  };
}
