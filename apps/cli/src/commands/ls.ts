import type { Command } from "commander";
import type { SessionRecord, Store } from "@hatloop/core";
import type { DbStore } from "@hatloop/db";
import { formatAge, formatCost, shortId, table } from "../format.js";
import { fleetStatus, fleetViews, type FleetView } from "../fleet/listing.js";
import { currentStatus, displayStatus, isLive } from "../session/liveness.js";
import { outputMode } from "../ui/output-mode.js";
import { renderSession, sessionDetails } from "./show.js";
import { watchSession } from "./watch.js";
import { withStore } from "../runtime.js";
import { printJson, printText } from "../output/print.js";
import { invocation } from "../invocation.js";

export async function lsAction(options: { json?: boolean; plain?: boolean; limit: number }, command: Command): Promise<void> {
  await withStore(command, async (store) => {
    const sessions = await store.sessions.list({ limit: options.limit });
    const fleet = await fleetViews(store, sessions);
    // The status as plain output shows it: a "running" session whose runner is gone is "interrupted".
    if (options.json) {
      const statuses = await statusesOf(store, sessions);
      return printJson(
        sessions.map((s) => ({
          ...s,
          status: fleetStatus(fleet.get(s.id), statuses.get(s.id) ?? displayStatus(s)),
          fleet: fleet.get(s.id) ?? null,
        })),
      );
    }
    if (outputMode(options) !== "tui" || sessions.length === 0)
      return printText(renderSessionList(sessions, await statusesOf(store, sessions), undefined, fleet));
    await dashboard(store, options.limit);
  });
}

/**
 * On a terminal: a live dashboard (refreshed every 2 s, f filters by status). Enter watches a live
 * session and q there comes back to the list; a finished one is shown in place. Statuses and the
 * worker column are those of `ls --plain`.
 */
async function dashboard(store: DbStore, limit: number): Promise<void> {
  const { chooseSession } = await import("@hatloop/tui");
  const source = {
    load: async () => {
      const now = new Date();
      const sessions = await store.sessions.list({ limit });
      const [statuses, fleet] = await Promise.all([statusesOf(store, sessions), fleetViews(store, sessions)]);
      return sessions.map((s) => ({
        ...rowOf(s, now),
        status: fleetStatus(fleet.get(s.id), statuses.get(s.id)!),
        ...(fleet.size ? { worker: fleet.get(s.id)?.worker ?? "-" } : {}),
        id: s.id,
        live: isLive(s, now.getTime()),
      }));
    },
    details: async (id: string) => {
      const session = await store.sessions.get(id);
      return session ? renderSession(await sessionDetails(store, session)) : `session ${id} is gone`;
    },
  };
  for (;;) {
    const choice = await chooseSession(source);
    if (!choice) return;
    const session = await store.sessions.get(choice.id);
    if (!session) continue;
    if (choice.action === "watch") await watchSession(store, session, "tui");
    else printText(renderSession(await sessionDetails(store, session)));
  }
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

/** Each session's status as its run's view shows it (a live run held by the user is "paused"). */
async function statusesOf(store: Store, sessions: SessionRecord[]): Promise<Map<string, string>> {
  const now = Date.now();
  return new Map(
    await Promise.all(
      sessions.map(async (s) => [s.id, isLive(s, now) ? await currentStatus(store, s, now) : displayStatus(s, now)] as const),
    ),
  );
}

function renderSessionList(
  sessions: SessionRecord[],
  statuses: Map<string, string>,
  now = new Date(),
  fleet: Map<string, FleetView> = new Map(),
): string {
  if (sessions.length === 0) return `No sessions yet. Start one with: ${invocation()} run "<task>"   (or try: ${invocation()} demo)`;
  const rows = sessions.map((s) => {
    const r = rowOf(s, now);
    return [
      shortId(s.id),
      fleetStatus(fleet.get(s.id), statuses.get(s.id) ?? r.status),
      r.hat,
      r.iteration,
      r.cost,
      r.updated,
      ...(fleet.size ? [String(fleet.get(s.id)?.priority ?? "-"), fleet.get(s.id)?.worker ?? "-"] : []),
      r.title,
    ];
  });
  return table([["ID", "STATUS", "HAT", "ITER", "COST", "UPDATED", ...(fleet.size ? ["PRI", "WORKER"] : []), "TASK"], ...rows]);
}
