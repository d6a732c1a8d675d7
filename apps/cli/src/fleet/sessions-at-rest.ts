import type { SessionRecord } from "@hatloop/core";
import type { SessionFilter } from "@hatloop/db";
import { sessionsAtRest, tallySessions } from "@hatloop/db/at-rest";
import { displayStatus, isLive } from "../session/liveness.js";
import type { SessionSource } from "./session-list.js";

// `ls` while nobody holds the embedded database: the sessions its last holder left as it closed the
// directory (@hatloop/db/at-rest), listed without starting Postgres. An embedded database has no
// fleet sessions and no queue (the holder leaves nothing if it has fleet rows), so each session's
// status is its stored one as liveness.ts shows it, and nothing is queued or dead-lettered.

/**
 * The embedded database's sessions at rest; null when it is not embedded, is held, has nothing at
 * rest, or a session there looks live, whose pause only its events tell (the database then answers).
 */
export function restingSource(url: string | undefined, now: number): SessionSource | null {
  const sessions = sessionsAtRest(url);
  if (!sessions || sessions.some((session) => isLive(session, now))) return null;
  return sourceOver(sessions);
}

/** A source over sessions in hand, none of them live. */
export function sourceOver(sessions: readonly SessionRecord[]): SessionSource {
  return {
    page: async (filter, { limit, offset }) => sessions.filter((session) => passes(session, filter)).slice(offset, offset + limit),
    statuses: async (page, at) => new Map(page.map((session) => [session.id, displayStatus(session, at)])),
    fleet: async () => new Map(),
    totals: async (bounds) => tallySessions(sessions, bounds),
  };
}

/** The database's filter (filteredSessions), on sessions none of which is a fleet one. */
function passes(session: SessionRecord, filter: SessionFilter): boolean {
  if (filter.worker !== undefined || filter.deadLettered) return false;
  if (filter.statuses && !filter.statuses.includes(session.status)) return false;
  if (filter.ids && !filter.ids.includes(session.id)) return false;
  return filter.repo === undefined || session.repoPath === filter.repo;
}
