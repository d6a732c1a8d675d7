import { desc } from "drizzle-orm";
import type { SessionRecord } from "@hatloop/core";
import type { Db } from "../db.js";
import { fleetSessions, sessions } from "../schema.js";
import { toRecord } from "./sessions.js";

/**
 * Beyond this many sessions none are left at rest: writing them would add a tenth of a second to
 * every close per thousand (measured with 2 KB scratchpads), and `ls` opens the database instead.
 */
const MOST_AT_REST = 2_000;

/**
 * What a holder leaves for `ls` as it gives the embedded directory up (embedded/resting-file.ts):
 * every session, in the order `ls` lists them. Null when the directory has fleet sessions, whose
 * queue and worker these rows do not say, or more sessions than MOST_AT_REST.
 */
export async function sessionsToRest(db: Db): Promise<SessionRecord[] | null> {
  if ((await db.select({ id: fleetSessions.sessionId }).from(fleetSessions).limit(1)).length > 0) return null;
  const rows = await db
    .select()
    .from(sessions)
    .orderBy(desc(sessions.createdAt), desc(sessions.id))
    .limit(MOST_AT_REST + 1);
  return rows.length > MOST_AT_REST ? null : rows.map(toRecord);
}
