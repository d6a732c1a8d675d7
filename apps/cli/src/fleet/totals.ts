import type { SessionTotals } from "@hatloop/db";
import { formatCost } from "../format.js";
import type { SessionSource } from "./session-list.js";

// The totals under `ls` (and on the web console): what the sessions created today, this week and
// ever cost, and how many sessions there are in each status. Day and week are this machine's local
// time (the week starts on Monday); each session counts in the period it was created in.

export type CostTotals = SessionTotals;

export function costTotals(source: SessionSource, now: Date): Promise<CostTotals> {
  const dayStart = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const sinceMonday = (dayStart.getDay() + 6) % 7;
  const weekStart = new Date(now.getFullYear(), now.getMonth(), now.getDate() - sinceMonday);
  return source.totals({ dayStart, weekStart });
}

/** The lines under the table. */
export function totalsLines(totals: CostTotals): string[] {
  const tally = (t: CostTotals["today"]) => `${formatCost(t.costUsd)} (${t.sessions} session${t.sessions === 1 ? "" : "s"})`;
  const statuses = Object.entries(totals.byStatus)
    .map(([status, n]) => `${n} ${status}`)
    .join(", ");
  return [
    `cost       today ${tally(totals.today)}, this week ${tally(totals.week)}, in all ${tally(totals.all)}`,
    `sessions   ${statuses}`,
  ];
}
