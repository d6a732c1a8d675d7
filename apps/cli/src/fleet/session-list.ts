import type { SessionRecord, SessionStatus } from "@hatloop/core";
import type { SessionFilter, SessionTotals } from "@hatloop/db";
import { isLive } from "../session/liveness.js";
import { fleetStatus, type FleetView } from "./listing.js";

// The session list as `ls` shows it, for `ls` and the web console: each session with the status a
// person sees (stored, or interrupted, queued, dead-lettered) and its fleet side, filtered by those
// statuses, by worker and by repository, newest first. The source filters what it can (stored
// status, worker, repository; indexed in the database); the statuses it cannot know (a live
// runner's, the queue's) are decided here, a page at a time, until `limit` rows pass. Sources: the
// database (sessions-in-store.ts), or what an embedded database's last holder left for a reader
// while nobody holds it (sessions-at-rest.ts).

export interface SessionQuery {
  /** Statuses as shown: stored ones, interrupted, queued, dead-lettered; absent: any. */
  statuses?: readonly string[];
  /** The worker (its --name) that runs a fleet session, or ran it last. */
  worker?: string;
  /** The repository: a fleet session's URL, or a local session's repository path. */
  repo?: string;
  /** Only these sessions. */
  ids?: readonly string[];
  limit: number;
}

/**
 * One listed session: `ls --json`'s row. `status` as shown; `live`: a runner holds it now (what the
 * stored status alone cannot say).
 */
export type ListedSession = Omit<SessionRecord, "status"> & { status: string; live: boolean; fleet: FleetView | null };

/** Where sessions are listed from. */
export interface SessionSource {
  /** One page of the sessions that pass `filter`, newest first. */
  page(filter: SessionFilter, page: { limit: number; offset: number }): Promise<SessionRecord[]>;
  /** The status to show of each (liveness.ts, currentStatuses). */
  statuses(sessions: readonly SessionRecord[], now: number): Promise<Map<string, string>>;
  /** The fleet sessions among them. */
  fleet(sessions: readonly SessionRecord[]): Promise<Map<string, FleetView>>;
  /** What the sessions created since each bound cost (the caller's day and week), and how many have each status. */
  totals(bounds: { dayStart: Date; weekStart: Date }): Promise<SessionTotals>;
}

export async function listSessions(source: SessionSource, query: SessionQuery): Promise<ListedSession[]> {
  const stored = storedCandidates(query.statuses);
  const wanted = query.statuses ? new Set(query.statuses) : null;
  const filter = {
    ...(stored ? { statuses: stored } : {}),
    ...(query.worker !== undefined ? { worker: query.worker } : {}),
    ...(query.repo !== undefined ? { repo: query.repo } : {}),
    ...(query.ids !== undefined ? { ids: query.ids } : {}),
    ...(query.statuses?.length === 1 && query.statuses[0] === "dead-lettered" ? { deadLettered: true } : {}),
  };
  const rows: ListedSession[] = [];
  // Without a status to decide here, the first page is the answer.
  const pageSize = wanted ? Math.max(query.limit, 200) : query.limit;
  for (let offset = 0; rows.length < query.limit; offset += pageSize) {
    const page = await source.page(filter, { limit: pageSize, offset });
    const now = Date.now();
    const [statuses, fleet] = await Promise.all([source.statuses(page, now), source.fleet(page)]);
    for (const session of page) {
      const view = fleet.get(session.id);
      const status = fleetStatus(view, statuses.get(session.id)!);
      if (!wanted || wanted.has(status)) rows.push({ ...session, status, live: isLive(session, now), fleet: view ?? null });
      if (rows.length === query.limit) break;
    }
    if (page.length < pageSize) break;
  }
  return rows;
}

/** The stored statuses a session shown with one of `shown` can have; undefined: any. */
function storedCandidates(shown: readonly string[] | undefined): SessionStatus[] | undefined {
  if (!shown) return undefined;
  const stored = new Set<SessionStatus>();
  for (const status of shown) for (const s of STORED_AS[status] ?? [status as SessionStatus]) stored.add(s);
  return [...stored];
}

/** Statuses that are not stored as such. A live run the user paused is stored "running". */
const STORED_AS: Record<string, readonly SessionStatus[]> = {
  interrupted: ["running", "pending"],
  paused: ["paused", "running"],
  // A queued session waits for its first start, or for its next after a drain, a crash or a resume.
  queued: ["pending", "running", "waiting", "paused", "stopped"],
  "dead-lettered": ["paused"],
};
