import type { SessionRecord } from "@hatloop/core";
import { readResting } from "./embedded/resting-file.js";
import { configuredLocation } from "./location.js";
import { restingKey } from "./embedded/resting-key.js";

// `@hatloop/db/at-rest`: the sessions of an embedded database that nobody holds, as its last holder
// left them (embedded/resting-file.ts), read without loading Postgres, drizzle or PGlite.

export { tallySessions } from "./stores/session-tally.js";
export { RESTING_FILE } from "./embedded/resting-file.js";

/** Every session, newest first; null when the database is not embedded, held, or its listing is stale. */
export function sessionsAtRest(url: string | undefined, env: NodeJS.ProcessEnv = process.env): SessionRecord[] | null {
  try {
    const location = configuredLocation(url, env);
    if (location.driver !== "pglite") return null;
    const sessions = readResting(location.dataDir, restingKey());
    return Array.isArray(sessions) ? (sessions as SessionRecord[]) : null;
  } catch {
    // A location that cannot be used: opening the database says why.
    return null;
  }
}
