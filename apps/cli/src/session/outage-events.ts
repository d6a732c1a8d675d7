import { Emitter, type EventSink, type SessionRecord } from "@hatloop/core";
import { DatabaseUnavailableError, describeOutage, surfacedError } from "@hatloop/db";
import { routeOutages } from "../outages.js";
import { shortId } from "../format.js";
import { invocation } from "../invocation.js";

/**
 * While a session runs, the database's outage reports become `database.outage` events: its view
 * shows them, and its log keeps them (written once the database is back). Add `sink` to the loop's
 * sinks: it follows the iteration the events belong to.
 */
export function outageEvents(session: SessionRecord, sinks: EventSink[]): { sink: EventSink; stop: () => void } {
  const emitter = new Emitter(session.id, sinks, Date.now);
  emitter.iteration = session.iteration;
  const stop = routeOutages((report) =>
    emitter.emit("database.outage", { state: report.state, location: report.location, message: describeOutage(report) }),
  );
  return { sink: (event) => void (emitter.iteration = event.iteration), stop };
}

/** A run given up on because of the database: the same error, saying how to continue. */
export function withResumeHint(error: unknown, session: SessionRecord): unknown {
  const surfaced = surfacedError(error);
  if (!(surfaced instanceof DatabaseUnavailableError)) return error;
  return new DatabaseUnavailableError(
    `${surfaced.message}; the session is kept: ${invocation()} resume ${shortId(session.id)} once the database is back`,
  );
}

/** Event writes lost to an outage are not worth a line of their own: the outage gets one. */
export function isOutage(error: unknown): boolean {
  return surfacedError(error) instanceof DatabaseUnavailableError;
}
