import type { ConsoleBackend, SessionQuery, SessionRow, StoredLoopEvent } from "./backend.js";
import { matchesQuery } from "./query.js";
import { RowGone, RowInsert, RowOf, TotalsOf } from "./pages/fleet.js";
import { Charts } from "./pages/charts.js";
import { Checklist, Scratchpad, SessionHead } from "./pages/session.js";
import { FleetBody } from "./pages/workers.js";
import { toHtml } from "./render.js";

// One follower of every session's events feeds every open page. A session page gets its new events
// at once, and its head, checklist and charts redrawn soon after (at most every
// HEAD_MS); a sessions page gets the rows of the sessions that changed, swapped in place, added or
// taken out by its filter (every ROWS_MS at most), and the totals (every TOTALS_MS); the workers page
// is redrawn when what it shows changed (looked at every WORKERS_MS while one is open: heartbeats are
// not events). Pages are pushed to, never poll.

const HEAD_MS = 250;
const ROWS_MS = 100;
const TOTALS_MS = 1_000;
const WORKERS_MS = 2_000;
/** Events that move a session's charts. */
const CHARTED = new Set(["usage.total", "context.gauge", "context.compacted"]);

export type Send = (event: string, html: string) => void;

/** What a session page is sent: its new events (rendered by the stream route, in order), and its redrawn head. */
export interface SessionFeed {
  events(events: StoredLoopEvent[]): void;
  head(html: string): void;
}

interface SessionWatch {
  sessionId: string;
  feed: SessionFeed;
}

interface FleetWatch {
  query: SessionQuery;
  /** The sessions whose rows the page shows. */
  shown: Set<string>;
  send: Send;
  /** Sessions that changed before the page's first rows were sent; null once they were. */
  pending: Set<string> | null;
}

/** A sessions page's watch: registered before its rows are read, so no change between the two is lost. */
export interface FleetWatchHandle {
  /** The first rows were sent: from now on the page gets row changes, starting with those it missed. */
  ready(shown: Iterable<string>): void;
  stop(): void;
}

export class LiveHub {
  private readonly sessions = new Set<SessionWatch>();
  private readonly fleets = new Set<FleetWatch>();
  private readonly workers = new Set<Send>();
  private readonly abort = new AbortController();
  private readonly dirtyRows = new Set<string>();
  private readonly dirtyHeads = new Map<string, { charts: boolean }>();
  private timers = { rows: null as NodeJS.Timeout | null, heads: null as NodeJS.Timeout | null, totals: null as NodeJS.Timeout | null };
  private workersTimer: NodeJS.Timeout | null = null;
  private lastWorkers = "";

  constructor(
    private readonly backend: ConsoleBackend,
    private readonly now: () => number = Date.now,
  ) {}

  /** Follows from the newest event on; resolves when stopped. */
  async start(onError: (error: unknown) => void): Promise<void> {
    const after = await this.backend.lastEventId();
    await this.backend.follow(after, (events) => this.dispatch(events), this.abort.signal).catch(onError);
  }

  stop(): void {
    this.abort.abort();
    for (const timer of [...Object.values(this.timers), this.workersTimer]) if (timer) clearTimeout(timer);
  }

  watchSession(sessionId: string, feed: SessionFeed): () => void {
    const watch = { sessionId, feed };
    this.sessions.add(watch);
    return () => this.sessions.delete(watch);
  }

  watchFleet(query: SessionQuery, send: Send): FleetWatchHandle {
    const watch: FleetWatch = { query, shown: new Set(), send, pending: new Set() };
    this.fleets.add(watch);
    return {
      ready: (shown) => {
        const missed = watch.pending ?? new Set<string>();
        watch.pending = null;
        watch.shown = new Set(shown);
        // Read again after the first rows: a change read before them may be older than they are.
        if (missed.size) this.markRows(missed);
      },
      stop: () => this.fleets.delete(watch),
    };
  }

  watchWorkers(send: Send): () => void {
    this.workers.add(send);
    if (!this.workersTimer) this.workersTimer = setTimeout(() => void this.pushWorkers(), WORKERS_MS);
    return () => {
      this.workers.delete(send);
      if (this.workers.size === 0 && this.workersTimer) {
        clearTimeout(this.workersTimer);
        this.workersTimer = null;
        this.lastWorkers = "";
      }
    };
  }

  /** A batch of stored events: new list items at once, the rest coalesced. */
  private dispatch(events: StoredLoopEvent[]): void {
    const bySession = new Map<string, StoredLoopEvent[]>();
    for (const stored of events) {
      const id = stored.event.sessionId;
      bySession.set(id, [...(bySession.get(id) ?? []), stored]);
    }
    for (const [sessionId, list] of bySession) {
      const watchers = [...this.sessions].filter((w) => w.sessionId === sessionId);
      if (watchers.length) {
        for (const w of watchers) w.feed.events(list);
        const charts = list.some((s) => CHARTED.has(s.event.type));
        this.dirtyHeads.set(sessionId, { charts: charts || (this.dirtyHeads.get(sessionId)?.charts ?? false) });
        this.timers.heads ??= setTimeout(() => void this.pushHeads(), HEAD_MS);
      }
    }
    if (this.fleets.size) this.markRows(bySession.keys());
  }

  /** Sessions whose rows are sent again soon to the pages that watch them. */
  private markRows(ids: Iterable<string>): void {
    for (const id of ids) this.dirtyRows.add(id);
    if (!this.dirtyRows.size) return;
    this.timers.rows ??= setTimeout(() => void this.pushRows(), ROWS_MS);
    this.timers.totals ??= setTimeout(() => void this.pushTotals(), TOTALS_MS);
  }

  private async pushHeads(): Promise<void> {
    this.timers.heads = null;
    const dirty = [...this.dirtyHeads];
    this.dirtyHeads.clear();
    for (const [sessionId, { charts }] of dirty) {
      const watchers = [...this.sessions].filter((w) => w.sessionId === sessionId);
      if (!watchers.length) continue;
      const detail = await this.backend.session(sessionId);
      if (!detail) continue;
      let html =
        toHtml(SessionHead({ detail, now: this.now(), oob: true })) +
        toHtml(Checklist({ detail, oob: true })) +
        toHtml(Scratchpad({ text: detail.row.session.scratchpad, oob: true }));
      if (charts) {
        const series = await this.backend.series(sessionId);
        html += toHtml(Charts({ series, maxCostUsd: detail.row.session.budgets.maxCostUsd, oob: true }));
      }
      for (const w of watchers) w.feed.head(html);
    }
  }

  private async pushRows(): Promise<void> {
    this.timers.rows = null;
    const ids = [...this.dirtyRows];
    this.dirtyRows.clear();
    if (!this.fleets.size || !ids.length) return;
    const rows = await this.backend.sessions({ ids, limit: ids.length });
    const byId = new Map(rows.map((row) => [row.session.id, row]));
    for (const watch of this.fleets) {
      if (watch.pending) {
        for (const id of ids) watch.pending.add(id);
        continue;
      }
      const parts = ids.flatMap((id) => this.rowChange(watch, id, byId.get(id)));
      if (parts.length) watch.send("rows", parts.join(""));
    }
  }

  /** What a page must do with one changed session's row, by its filter. */
  private rowChange(watch: FleetWatch, id: string, row: SessionRow | undefined): string[] {
    const now = this.now();
    const wanted = row !== undefined && matchesQuery(row, watch.query);
    if (wanted && watch.shown.has(id)) return [toHtml(RowOf({ row, now, oob: true }))];
    if (wanted) {
      watch.shown.add(id);
      return [toHtml(RowInsert({ row, now }))];
    }
    if (!watch.shown.delete(id)) return [];
    return [toHtml(RowGone({ id }))];
  }

  private async pushTotals(): Promise<void> {
    this.timers.totals = null;
    if (!this.fleets.size) return;
    const totals = await this.backend.totals();
    const html = toHtml(TotalsOf({ totals, oob: true }));
    for (const watch of this.fleets) if (!watch.pending) watch.send("rows", html);
  }

  private async pushWorkers(): Promise<void> {
    this.workersTimer = null;
    if (!this.workers.size) return;
    try {
      const html = toHtml(FleetBody({ fleet: await this.backend.fleet(), now: this.now(), oob: true }));
      if (html !== this.lastWorkers) for (const send of this.workers) send("fleet", html);
      this.lastWorkers = html;
    } finally {
      if (this.workers.size) this.workersTimer = setTimeout(() => void this.pushWorkers(), WORKERS_MS);
    }
  }
}
