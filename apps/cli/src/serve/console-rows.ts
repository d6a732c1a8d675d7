import { matchesQuery, type SessionQuery, type SessionRow, type Totals } from "@hatloop/console";
import type { SessionRecord } from "@hatloop/core";
import type { DbStore } from "@hatloop/db";
import { fleetStatus, fleetViews } from "../fleet/listing.js";
import { currentStatus, displayStatus, isLive } from "../session/liveness.js";
import { eventLine } from "./backend.js";

// The console's rows: each session as `hatloop ls` shows it (its status, worker and repository), with
// its newest event, filtered as the page asks; and the totals above them.

/** Sessions read at most for one page (the newest first). */
const SCAN = 2_000;

export async function sessionRows(store: DbStore, query: SessionQuery): Promise<{ rows: SessionRow[]; totals: Totals }> {
  const sessions = query.ids
    ? (await Promise.all(query.ids.map((id) => store.sessions.get(id)))).filter((s): s is SessionRecord => s !== null)
    : await store.sessions.list({ limit: SCAN });
  const now = Date.now();
  const [fleet, latest] = await Promise.all([fleetViews(store, sessions), store.events.latest(sessions.map((s) => s.id))]);
  const lastEvents = new Map(latest.map((e) => [e.sessionId, e]));
  const all = await Promise.all(
    sessions.map(async (session): Promise<SessionRow> => {
      const view = fleet.get(session.id);
      const status = isLive(session, now) ? await currentStatus(store, session, now) : displayStatus(session, now);
      const last = lastEvents.get(session.id);
      const text = last ? eventLine(last) : null;
      return {
        session,
        status: fleetStatus(view, status),
        worker: view?.worker ?? null,
        repo: view?.repo ?? null,
        priority: null,
        lastEvent: last && text ? { at: last.createdAt, text } : null,
      };
    }),
  );
  const rows = all.filter((row) => matchesQuery(row, query)).slice(0, query.limit ?? SCAN);
  return { rows, totals: totalsOf(all) };
}

function totalsOf(rows: SessionRow[]): Totals {
  const byStatus: Record<string, number> = {};
  for (const row of rows) byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
  const all = rows.reduce((n, r) => n + r.session.costUsd, 0);
  return { today: 0, week: 0, all, byStatus };
}
