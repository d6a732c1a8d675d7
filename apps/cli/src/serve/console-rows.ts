import { matchesQuery, type SessionQuery, type SessionRow, type Totals } from "@hatloop/console";
import type { DbStore } from "@hatloop/db";
import { listSessions } from "../fleet/session-list.js";
import { sessionsInStore } from "../fleet/sessions-in-store.js";
import { costTotals } from "../fleet/totals.js";
import { describeEvent, eventReader, LOOP_EVENT_TYPES, type StoredEvent } from "@hatloop/core";

// The console's rows: the sessions as `hatloop ls` lists them (listSessions: status as shown, worker,
// repository, priority), each with its newest event; and the totals `ls` prints under its table.

/**
 * The events a row's "last event" is chosen from: every kind but the model's streamed text and the
 * usage totals, which arrive between the others many times a second and say nothing in a line.
 */
const TELLING = LOOP_EVENT_TYPES.filter((type) => type !== "model.text" && type !== "usage.total");

/** Sessions read at most to find a page's rows by words or a part of a repository's name. */
const SCAN = 2_000;

export async function sessionRows(store: DbStore, query: SessionQuery): Promise<SessionRow[]> {
  const limit = query.limit ?? SCAN;
  // The database filters by status, worker and id; words and part of a repository are matched here.
  const matchedHere = Boolean(query.text || query.repo);
  const listed = await listSessions(sessionsInStore(store), {
    ...(query.status?.length ? { statuses: query.status } : {}),
    ...(query.worker ? { worker: query.worker } : {}),
    ...(query.ids ? { ids: query.ids } : {}),
    limit: query.ids ? query.ids.length : matchedHere ? SCAN : limit,
  });
  if (listed.length === 0) return [];
  const latest = new Map(
    (
      await store.events.latest(
        listed.map((s) => s.id),
        TELLING,
      )
    ).map((e) => [e.sessionId, e]),
  );
  const rows = listed.map((session): SessionRow => {
    const last = latest.get(session.id);
    const text = last ? eventLine(last) : null;
    return {
      session,
      status: session.status,
      worker: session.fleet?.worker ?? null,
      repo: session.fleet?.repo ?? null,
      priority: session.fleet?.priority ?? null,
      lastEvent: last && text ? { at: last.createdAt, text } : null,
    };
  });
  return (matchedHere ? rows.filter((row) => matchesQuery(row, query)) : rows).slice(0, limit);
}

export async function sessionTotals(store: DbStore): Promise<Totals> {
  return costTotals(sessionsInStore(store), new Date());
}

/** The line of a stored event, for a row's "last event". */
function eventLine(stored: StoredEvent): string | null {
  const [event] = eventReader(() => {}).read([stored]);
  return event ? (describeEvent(event)?.trim().split("\n")[0] ?? event.type) : null;
}
