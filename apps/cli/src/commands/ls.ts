import { existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { SessionRecord } from "@hatloop/core";
import { formatAge, formatCost, shortId, table } from "../format.js";
import { listSessions, type ListedSession, type SessionQuery, type SessionSource } from "../fleet/session-list.js";
import { restingSource } from "../fleet/sessions-at-rest.js";
import { costTotals, totalsLines } from "../fleet/totals.js";
import { outputMode } from "../ui/output-mode.js";
import { configFor, withStore } from "../runtime.js";
import { printJson, printText } from "../output/print.js";
import { invocation } from "../invocation.js";

export interface LsFlags {
  json?: boolean;
  plain?: boolean;
  limit: number;
  status?: string[];
  worker?: string;
  repo?: string;
  totals?: boolean;
}

export async function lsAction(options: LsFlags, command: Command): Promise<void> {
  const query: SessionQuery = {
    limit: options.limit,
    ...(options.status ? { statuses: options.status } : {}),
    ...(options.worker !== undefined ? { worker: options.worker } : {}),
    ...(options.repo !== undefined ? { repo: repositoryFilter(options.repo) } : {}),
  };
  const config = configFor(command);
  const home = outputMode(options) === "tui" && !options.totals;
  // Nobody holds the embedded database: its last holder's listing answers without starting it.
  const atRest = home ? null : restingSource(config.databaseUrl, Date.now());
  if (atRest) return printListing(atRest, options, query);
  await withStore(
    command,
    async (store) => {
      const source = (await import("../fleet/sessions-in-store.js")).sessionsInStore(store);
      if (home && (await listSessions(source, { ...query, limit: 1 })).length)
        return (await import("../ui/home.js")).homeScreen(store, config, query);
      await printListing(source, options, query);
    },
    config,
  );
}

async function printListing(source: SessionSource, options: LsFlags, query: SessionQuery): Promise<void> {
  const sessions = await listSessions(source, query);
  if (options.json) {
    // An array, as ever; with --totals an object holding it beside the totals.
    return printJson(options.totals ? { sessions, totals: await costTotals(source, new Date()) } : sessions);
  }
  const filtered = query.statuses !== undefined || query.worker !== undefined || query.repo !== undefined;
  if (sessions.length === 0 && filtered) return printText("No sessions match.");
  const lines = [renderSessionList(sessions)];
  if (sessions.length) lines.push("", ...totalsLines(await costTotals(source, new Date())));
  printText(lines.join("\n"));
}

/** A local repository path as the sessions have it (absolute); a URL as given. */
function repositoryFilter(repo: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repo) || /^[^/\s]+@[^:\s]+:/.test(repo)) return repo;
  const path = resolve(repo);
  return existsSync(path) ? realpathSync(path) : path;
}

function rowOf(s: Pick<SessionRecord, "hat" | "iteration" | "budgets" | "costUsd" | "updatedAt" | "title">, now: Date) {
  return {
    hat: s.hat,
    iteration: s.budgets.maxIterations ? `${s.iteration}/${s.budgets.maxIterations}` : String(s.iteration),
    cost: formatCost(s.costUsd),
    updated: formatAge(s.updatedAt, now),
    title: s.title,
  };
}

function renderSessionList(sessions: ListedSession[], now = new Date()): string {
  if (sessions.length === 0) return `No sessions yet. Start one with: ${invocation()} run "<task>"   (or try: ${invocation()} demo)`;
  const fleet = sessions.some((s) => s.fleet);
  const rows = sessions.map((s) => {
    const r = rowOf(s, now);
    return [
      shortId(s.id),
      s.status,
      r.hat,
      r.iteration,
      r.cost,
      r.updated,
      ...(fleet ? [String(s.fleet?.priority ?? "-"), s.fleet?.worker ?? "-"] : []),
      r.title,
    ];
  });
  return table([["ID", "STATUS", "HAT", "ITER", "COST", "UPDATED", ...(fleet ? ["PRI", "WORKER"] : []), "TASK"], ...rows]);
}
