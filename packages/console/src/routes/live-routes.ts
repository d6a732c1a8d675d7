import type { Hono } from "hono";
import { streamSSE, type SSEStreamingApi } from "hono/streaming";
import type { ConsoleBackend, SessionRow, StoredLoopEvent } from "../backend.js";
import type { LiveHub } from "../live.js";
import { RowGone, RowInsert, RowOf, TotalsOf } from "../pages/fleet.js";
import { StreamItem } from "../pages/stream.js";
import { FleetBody } from "../pages/workers.js";
import { parseQuery } from "../query.js";
import { toHtml } from "../render.js";
import type { RowSnapshots, TableView } from "../row-snapshots.js";

// The pages' live streams (Server-Sent Events, which htmx's SSE extension swaps into the page). Each
// starts with what may have changed since the page was drawn, then follows the hub. A comment every
// KEEPALIVE_MS keeps proxies from closing an idle stream.

const KEEPALIVE_MS = 20_000;
/** Rows a sessions page shows at most. */
export const PAGE_ROWS = 500;

/** Writes in order, never two at once; a write to a stream the page closed is dropped. */
function writer(stream: SSEStreamingApi) {
  let chain = Promise.resolve();
  return (event: string, data: string) => {
    chain = chain.then(() => stream.writeSSE({ event, data })).catch(() => {});
  };
}

async function held(stream: SSEStreamingApi, stop: () => void): Promise<void> {
  const keepalive = setInterval(() => void stream.write(": keepalive\n\n").catch(() => {}), KEEPALIVE_MS);
  await new Promise<void>((resolve) => stream.onAbort(resolve));
  clearInterval(keepalive);
  stop();
}

/** The rows of a table that changed since its snapshot: swapped in place, added first (newer rows come first), taken out. */
function rowChanges(view: TableView, rows: readonly SessionRow[], now: number): string {
  const current = new Set(rows.map((row) => row.session.id));
  const gone = [...view.rows.keys()].filter((id) => !current.has(id)).map((id) => toHtml(RowGone({ id })));
  const changed = rows
    .filter((row) => view.rows.has(row.session.id) && view.changed(row))
    .map((row) => toHtml(RowOf({ row, now, oob: true })));
  // Added in reverse, each put first: they end up in the order the table lists them.
  const added = rows
    .filter((row) => !view.rows.has(row.session.id))
    .reverse()
    .map((row) => toHtml(RowInsert({ row, now })));
  return [...gone, ...changed, ...added].join("");
}

export function liveRoutes(app: Hono, backend: ConsoleBackend, hub: LiveHub, snapshots: RowSnapshots, now: () => number): void {
  app.get("/live/fleet", (c) =>
    streamSSE(c, async (stream) => {
      const query = parseQuery(new URL(c.req.url).searchParams);
      const view = snapshots.take(c.req.query("view"));
      const send = writer(stream);
      // Watched first, then read: nothing that changes between the two is missed. What changed since
      // its snapshot, when the page has one; else every row, whole.
      const watch = hub.watchFleet(query, send);
      const [rows, totals] = await Promise.all([backend.sessions({ ...query, limit: PAGE_ROWS }), backend.totals()]);
      const totalsHtml = toHtml(TotalsOf({ totals, oob: true }));
      if (view) send("rows", rowChanges(view, rows, now()) + totalsHtml);
      else {
        const body = rows.map((row) => toHtml(RowOf({ row, now: now() }))).join("");
        send("rows", `<tbody id="rows" hx-swap-oob="true">${body}</tbody>${totalsHtml}`);
      }
      watch.ready(rows.map((r) => r.session.id));
      await held(stream, () => watch.stop());
    }),
  );

  app.get("/live/sessions/:id", (c) =>
    streamSSE(c, async (stream) => {
      const sessionId = c.req.param("id");
      const send = writer(stream);
      let last = Number(c.req.query("after") ?? 0) || 0;
      let caughtUp = false;
      const waiting: StoredLoopEvent[] = [];
      const show = (events: StoredLoopEvent[]) => {
        const fresh = events.filter((e) => e.id > last);
        if (!fresh.length) return;
        last = fresh.at(-1)!.id;
        const html = fresh.map((stored) => toHtml(StreamItem({ sessionId, stored }))).join("");
        if (html) send("events", html);
      };
      const stop = hub.watchSession(sessionId, {
        events: (events) => (caughtUp ? show(events) : waiting.push(...events)),
        head: (html) => send("head", html),
      });
      // What was stored after the page was drawn, then what the hub held meanwhile, in order.
      for (let batch = await backend.events(sessionId, last, 1000); batch.length; batch = await backend.events(sessionId, last, 1000))
        show(batch);
      caughtUp = true;
      show(waiting);
      await held(stream, stop);
    }),
  );

  app.get("/live/workers", (c) =>
    streamSSE(c, async (stream) => {
      const send = writer(stream);
      const stop = hub.watchWorkers(send);
      send("fleet", toHtml(FleetBody({ fleet: await backend.fleet(), now: now(), oob: true })));
      await held(stream, stop);
    }),
  );
}
