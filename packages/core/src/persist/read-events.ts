import type { z } from "zod";
import { EVENT_VERSION, LOOP_EVENT_TYPES, loopEventSchema, type LoopEvent } from "../events.js";
import type { StoredEvent } from "../store/port.js";

// Events that cross a process boundary (read back from the store by `logs`, `watch`, a follower,
// a resume) are checked against the event union before anyone uses them, never cast. An event that
// fails is skipped, and its reader says so once: one line per kind of problem, not one per event.
// Versions: an event without `v` (or a stored row without a version) predates versioning and reads
// as version 1; a version above EVENT_VERSION was written by a newer hatloop and is skipped.

export type EventParse = { ok: true; event: LoopEvent } | { ok: false; problem: string; newer: boolean };

/** Checks one event as received (a JSON line, a stored row rebuilt as an event). */
export function parseLoopEvent(raw: unknown): EventParse {
  const fields = raw !== null && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const v = fields.v;
  if (v !== undefined && v !== EVENT_VERSION) {
    const newer = typeof v === "number" && Number.isInteger(v) && v > EVENT_VERSION;
    const problem = newer
      ? `written by a newer hatloop (event schema version ${v}; this one reads version ${EVENT_VERSION})`
      : `unknown event schema version ${JSON.stringify(v)}`;
    return { ok: false, problem, newer };
  }
  if (typeof fields.type === "string" && !(LOOP_EVENT_TYPES as string[]).includes(fields.type)) {
    return { ok: false, problem: `unknown event type "${fields.type}"`, newer: false };
  }
  const parsed = loopEventSchema.safeParse(raw);
  return parsed.success ? { ok: true, event: parsed.data as LoopEvent } : { ok: false, problem: firstIssue(parsed.error), newer: false };
}

/** A stored row checked as an event; its row version (null: unversioned) becomes `v`. */
export function parseStoredEvent(stored: StoredEvent): EventParse {
  return parseLoopEvent({
    ...(stored.version === null ? {} : { v: stored.version }),
    sessionId: stored.sessionId,
    iteration: stored.iteration,
    ts: stored.createdAt.getTime(),
    type: stored.type,
    data: stored.payload,
  });
}

/** Reads stored events for one reader, reporting unreadable ones through `report` (one line each kind). */
export interface EventReader {
  read(stored: readonly StoredEvent[]): LoopEvent[];
  /** How many events were skipped so far. */
  readonly skipped: number;
}

export function eventReader(report: (line: string) => void): EventReader {
  const reported = new Set<string>();
  let skipped = 0;
  return {
    get skipped() {
      return skipped;
    },
    read(stored) {
      const out: LoopEvent[] = [];
      for (const row of stored) {
        const parsed = parseStoredEvent(row);
        if (parsed.ok) {
          out.push(parsed.event);
          continue;
        }
        skipped++;
        const kind = parsed.newer ? "newer" : row.type;
        if (reported.has(kind)) continue;
        reported.add(kind);
        const later = parsed.newer
          ? "upgrade hatloop to see such events; later ones are skipped without a note"
          : `later unreadable "${row.type}" events are skipped without a note`;
        report(`skipped stored event #${row.id} "${row.type}" (iteration ${row.iteration}): ${parsed.problem}; ${later}`);
      }
      return out;
    },
  };
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "not a valid event";
  const where = issue.path.length ? issue.path.map(String).join(".") : "the event";
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem${error.issues.length > 2 ? "s" : ""})` : "";
  return `${where}: ${issue.message}${more}`;
}
