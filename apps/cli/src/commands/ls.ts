import type { Command } from "commander";
import type { SessionRecord, Store } from "@hatloop/core";
import { formatAge, formatCost, shortId, table } from "../format.js";
import { positiveInt } from "../options.js";
import { displayStatus, isLive } from "../session/liveness.js";
import { outputMode } from "../ui/output-mode.js";
import { renderSession } from "./show.js";
import { watchSession } from "./watch.js";
import { printJson, withStore } from "../runtime.js";

export function registerLs(program: Command): void {
  program
    .command("ls")
    .description("list sessions, newest first")
    .option("--json", "print the sessions as a JSON array")
    .option("--plain", "a plain table even on a terminal")
    .option("-n, --limit <n>", "how many sessions", positiveInt, 50)
    .action(async (options: { json?: boolean; plain?: boolean; limit: number }, command: Command) => {
      await withStore(command, async (store) => {
        const sessions = await store.sessions.list({ limit: options.limit });
        if (options.json) return printJson(sessions);
        if (outputMode(options) !== "tui" || sessions.length === 0) return void process.stdout.write(`${renderSessionList(sessions)}\n`);
        await pickAndOpen(store, sessions);
      });
    });
}

/** On a terminal: an interactive list; Enter watches a running session or shows a finished one. */
async function pickAndOpen(store: Store, sessions: SessionRecord[]): Promise<void> {
  const { chooseSession } = await import("@hatloop/tui");
  const now = new Date();
  const choice = await chooseSession(sessions.map((s) => ({ ...rowOf(s, now), id: s.id, live: isLive(s) })));
  if (!choice) return;
  const session = sessions.find((s) => s.id === choice.id)!;
  if (choice.action === "watch") return watchSession(store, session, "tui");
  const [checklist, checkpoint, messages] = await Promise.all([store.checklist.list(session.id), store.checkpoints.latest(session.id), store.messages.count(session.id)]);
  process.stdout.write(`${renderSession(session, checklist, checkpoint, messages)}\n`);
}

function rowOf(s: SessionRecord, now: Date) {
  return {
    status: displayStatus(s, now.getTime()),
    hat: s.hat,
    iteration: s.budgets.maxIterations ? `${s.iteration}/${s.budgets.maxIterations}` : String(s.iteration),
    cost: formatCost(s.costUsd),
    updated: formatAge(s.updatedAt, now),
    title: s.title,
  };
}

export function renderSessionList(sessions: SessionRecord[], now = new Date()): string {
  if (sessions.length === 0) return 'No sessions yet. Start one with: hatloop run "<task>"   (or try: hatloop demo)';
  const rows = sessions.map((s) => {
    const r = rowOf(s, now);
    return [shortId(s.id), r.status, r.hat, r.iteration, r.cost, r.updated, r.title];
  });
  return table([["ID", "STATUS", "HAT", "ITER", "COST", "UPDATED", "TASK"], ...rows]);
}
