import { OwnerUnreachableError } from "../embedded/broker.js";

// Which errors mean "the database could not be reached" (wait and try again) rather than "the SQL
// failed" (never retried: it would fail the same way). drizzle wraps driver errors, so the whole
// cause chain is searched.

export interface ConnectionFailure {
  /** In a few words, for the user: "connection refused", "server shutting down: 57P01 admin_shutdown". */
  cause: string;
  /** Whether the statement may have reached the server (and committed) before the failure. */
  mayHaveRun: boolean;
  /** How long before it was noticed the failure began (a timeout: the whole wait). */
  beganMsAgo?: number;
}

/** Node and postgres.js codes: [what the user is told, whether the statement may have run]. */
const CONNECTION_CODES: Record<string, [string, boolean]> = {
  ECONNREFUSED: ["connection refused", false],
  ENOTFOUND: ["host not found", false],
  EAI_AGAIN: ["host lookup failed", false],
  EHOSTUNREACH: ["host unreachable", false],
  ENETUNREACH: ["network unreachable", false],
  ENOENT: ["no socket file", false],
  CONNECT_TIMEOUT: ["connect timeout", false],
  ECONNRESET: ["connection reset", true],
  ECONNABORTED: ["connection aborted", true],
  EPIPE: ["connection closed", true],
  ETIMEDOUT: ["connection timed out", true],
  CONNECTION_CLOSED: ["connection closed", true],
  CONNECTION_DESTROYED: ["connection closed", true],
};

/** SQLSTATEs of a server that is going away or not ready; class 08 is matched as a whole. */
const SERVER_STATES: Record<string, [string, boolean]> = {
  "57P01": ["server shutting down: 57P01 admin_shutdown", true],
  "57P02": ["server crashed: 57P02 crash_shutdown", true],
  "57P03": ["server starting or shutting down: 57P03 cannot_connect_now", false],
  "53300": ["too many connections: 53300", false],
};

/** Raised by hatloop's own client-side timeout when the server does not answer at all. */
export class QueryTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer from the database in ${Math.round(timeoutMs / 1000)}s`);
  }
}

/** A connection failure found anywhere in the error's cause chain, or null for a real SQL error. */
export function connectionFailure(error: unknown): ConnectionFailure | null {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const found = classifyOne(e);
    if (found) return found;
  }
  return null;
}

function classifyOne(e: { code?: unknown }): ConnectionFailure | null {
  if (e instanceof QueryTimeoutError)
    return { cause: `no answer in ${Math.round(e.timeoutMs / 1000)}s`, mayHaveRun: true, beganMsAgo: e.timeoutMs };
  // The embedded database's broker: the process holding the directory went away (see embedded/broker.ts).
  if (e instanceof OwnerUnreachableError) return { cause: "the process holding it went away", mayHaveRun: e.sent };
  const code = typeof e.code === "string" ? e.code : "";
  const known = CONNECTION_CODES[code] ?? SERVER_STATES[code];
  if (known) return { cause: known[0], mayHaveRun: known[1] };
  if (/^08[0-9A-Z]{3}$/.test(code)) return { cause: `connection failure: ${code}`, mayHaveRun: true };
  return null;
}
