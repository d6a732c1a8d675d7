import type { Command } from "commander";
import type { SessionRecord } from "@hatloop/core";
import { formatAge, formatCost, shortId, table } from "../format.js";
import { positiveInt } from "../options.js";
import { displayStatus } from "../session/liveness.js";
import { printJson, withStore } from "../runtime.js";

export function registerLs(program: Command): void {
  program
    .command("ls")
    .description("list sessions, newest first")
    .option("--json", "print the sessions as a JSON array")
    .option("-n, --limit <n>", "how many sessions", positiveInt, 50)
    .action(async (options: { json?: boolean; limit: number }, command: Command) => {
      await withStore(command, async (store) => {
        const sessions = await store.sessions.list({ limit: options.limit });
        if (options.json) return printJson(sessions);
        process.stdout.write(`${renderSessionList(sessions)}\n`);
      });
    });
}

export function renderSessionList(sessions: SessionRecord[], now = new Date()): string {
  if (sessions.length === 0) return 'No sessions yet. Start one with: hatloop run "<task>"   (or try: hatloop demo)';
  const rows = sessions.map((s) => [
    shortId(s.id),
    displayStatus(s, now.getTime()),
    s.hat,
    s.budgets.maxIterations ? `${s.iteration}/${s.budgets.maxIterations}` : String(s.iteration),
    formatCost(s.costUsd),
    formatAge(s.updatedAt, now),
    s.title,
  ]);
  return table([["ID", "STATUS", "HAT", "ITER", "COST", "UPDATED", "TASK"], ...rows]);
}
