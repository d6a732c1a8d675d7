import type { SessionRecord } from "@hatloop/core";
import type { SessionTotals, Tally } from "./session-listing.js";

/**
 * sessionTotals (session-listing.ts) over sessions in hand: those of an embedded database at rest,
 * which has no fleet sessions and no queue, so each counts under its stored status. Costs are added
 * in the order of the sessions' ids, as the query adds them, so both give the same sums to the bit
 * (PGlite collates in C, byte by byte, as JavaScript compares these ids).
 */
export function tallySessions(records: readonly SessionRecord[], bounds: { dayStart: Date; weekStart: Date }): SessionTotals {
  const today: Tally = { sessions: 0, costUsd: 0 };
  const week: Tally = { sessions: 0, costUsd: 0 };
  const all: Tally = { sessions: 0, costUsd: 0 };
  const periods = [
    [today, bounds.dayStart.getTime()],
    [week, bounds.weekStart.getTime()],
    [all, -Infinity],
  ] as const;
  const byStatus = new Map<string, number>();
  for (const session of [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const created = session.createdAt.getTime();
    for (const [tally, since] of periods) {
      if (created < since) continue;
      tally.sessions++;
      tally.costUsd += session.costUsd;
    }
    byStatus.set(session.status, (byStatus.get(session.status) ?? 0) + 1);
  }
  const statuses = [...byStatus].sort(([a], [b]) => (a < b ? -1 : 1));
  return { today, week, all, byStatus: Object.fromEntries(statuses) };
}
