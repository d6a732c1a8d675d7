import { renderHandoffMarkdown, type Handoff } from "@hatloop/context";
import { followStoredEvents, parseStoredEvent, redactValue, type SessionRecord, type StoredEvent } from "@hatloop/core";
import type { ConsoleBackend, SessionRow, StoredLoopEvent } from "@hatloop/console";
import type { DbStore } from "@hatloop/db";
import { findHandoff, withOpenQuestion } from "../session/handoff.js";
import { entryDetails } from "../ui/entry-details.js";
import { commitDiff } from "./commit-diff.js";
import { consoleActions } from "./console-actions.js";
import { fleetReader } from "./console-fleet.js";
import { sessionRows, sessionTotals } from "./console-rows.js";
import type { HatloopConfig } from "@hatloop/core";

// The console's port over this machine's view of the database: the store, the fleet's tables and
// queue when the database is Postgres, the session commands for actions. Everything read is as
// stored (redacted at the store), the handoff redacted again as `hatloop handoff` prints it.

const CHARTED = ["usage.total", "context.gauge", "context.compacted"];
const CHART_POINTS = 5_000;

export function consoleBackend(store: DbStore, config: HatloopConfig): ConsoleBackend & { close(): Promise<void> } {
  const rows = (ids: readonly string[]) => sessionRows(store, { ids: [...ids], limit: ids.length });
  const fleet = fleetReader(store, config);
  return {
    sessions: (query) => sessionRows(store, query),
    totals: () => sessionTotals(store),
    async session(id) {
      const found = await store.sessions.resolve(id);
      if (!found || "ambiguous" in found) return null;
      const { session } = found;
      const [[row], checklist, checkpoints, handoff] = await Promise.all([
        rows([session.id]),
        store.checklist.list(session.id),
        store.checkpoints.list(session.id, { limit: 50 }),
        findHandoff(store, session.id),
      ]);
      return {
        row: row ?? fallbackRow(session),
        checklist,
        handoff: handoff ? renderHandoffMarkdown(redactValue(withOpenQuestion(handoff.handoff, session)) as Handoff) : null,
        checkpoints: checkpoints.map((c) => ({
          seq: c.seq,
          reason: c.reason,
          iteration: c.iteration,
          gitCommit: c.gitCommit,
          createdAt: c.createdAt,
        })),
      };
    },
    events: async (sessionId, afterId, limit) => loopEvents(await store.events.after(sessionId, afterId, limit)),
    recentEvents: async (sessionId, limit) => loopEvents(await store.events.tail(sessionId, limit)),
    async series(sessionId) {
      const series = {
        cost: [] as Array<{ at: number; costUsd: number }>,
        gauge: [] as Array<{ at: number; iteration: number; tokens: number; window: number }>,
        compactions: [] as Array<{ at: number; iteration: number; tokensBefore: number; tokensAfter: number }>,
      };
      for (const { event } of loopEvents(await store.events.ofTypes(sessionId, CHARTED, CHART_POINTS))) {
        if (event.type === "usage.total") series.cost.push({ at: event.ts, costUsd: event.data.costUsd });
        else if (event.type === "context.gauge")
          series.gauge.push({ at: event.ts, iteration: event.iteration, tokens: event.data.tokens, window: event.data.window });
        else if (event.type === "context.compacted")
          series.compactions.push({
            at: event.ts,
            iteration: event.iteration,
            tokensBefore: event.data.tokensBefore,
            tokensAfter: event.data.tokensAfter,
          });
      }
      return series;
    },
    async toolResult(sessionId, iteration, toolUseId) {
      return entryDetails(store, sessionId)({ kind: "tool", iteration, toolId: toolUseId }).catch(() => null);
    },
    async diff(sessionId, commit) {
      const session = await store.sessions.get(sessionId);
      return session ? commitDiff(session, commit) : null;
    },
    fleet: () => fleet.read(),
    close: () => fleet.close(),
    act: consoleActions(store, config),
    lastEventId: () => store.events.lastId(),
    follow: (afterId, onEvents, signal) =>
      followStoredEvents(
        store,
        null,
        (batch) => {
          const events = loopEvents(batch);
          if (events.length) onEvents(events);
        },
        { afterId, signal },
      ),
  };
}

/** Stored events as the console reads them; an unreadable one is passed over. */
function loopEvents(stored: StoredEvent[]): StoredLoopEvent[] {
  return stored.flatMap((row) => {
    const parsed = parseStoredEvent(row);
    return parsed.ok ? [{ id: row.id, event: parsed.event }] : [];
  });
}

function fallbackRow(session: SessionRecord): SessionRow {
  return { session, status: session.status, worker: null, repo: null, priority: null, lastEvent: null };
}
