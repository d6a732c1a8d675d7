import type { Context, Hono } from "hono";
import type { ConsoleBackend } from "../backend.js";
import type { ConsoleAuth } from "../auth.js";
import { FleetPage, SessionTable } from "../pages/fleet.js";
import { MessagePage } from "../pages/layout.js";
import { SessionPage } from "../pages/session.js";
import { DiffBody, ResultBody } from "../pages/stream.js";
import { WorkersPage } from "../pages/workers.js";
import { parseQuery } from "../query.js";
import { PAGE_ROWS } from "./live-routes.js";
import { page, toHtml } from "../render.js";
import type { RowSnapshots } from "../row-snapshots.js";

// The pages and the fragments they fetch. A filter change asks for the sessions table alone (an htmx
// request), a reload for the whole page, at the same address.

/** Events a session page starts with (older ones are in `hatloop logs`). */
const FIRST_EVENTS = 400;

export function pageRoutes(app: Hono, backend: ConsoleBackend, auth: ConsoleAuth, snapshots: RowSnapshots, now: () => number): void {
  const csrf = (c: Context) => auth.login(c)?.csrf ?? "";

  app.get("/", async (c) => {
    const query = parseQuery(new URL(c.req.url).searchParams);
    const rows = await backend.sessions({ ...query, limit: PAGE_ROWS });
    c.header("vary", "HX-Request");
    const view = snapshots.save(rows);
    if (c.req.header("hx-request")) return c.html(toHtml(SessionTable({ rows, query, now: now(), view })));
    const [fleet, totals] = await Promise.all([backend.fleet(), backend.totals()]);
    const workers = [
      ...new Set([...(fleet?.workers.map((w) => w.name) ?? []), ...rows.flatMap((r) => (r.worker ? [r.worker] : []))]),
    ].sort();
    return c.html(page(FleetPage({ rows, totals, query, workers, csrf: csrf(c), now: now(), view })));
  });

  app.get("/sessions/:id", async (c) => {
    const detail = await backend.session(c.req.param("id"));
    if (!detail) return c.html(page(MessagePage({ title: "Not found", message: `No session matches ${c.req.param("id")}.` })), 404);
    const id = detail.row.session.id;
    if (id !== c.req.param("id")) return c.redirect(`/sessions/${id}`, 303);
    const [events, series, lastEventId] = await Promise.all([
      backend.recentEvents(id, FIRST_EVENTS),
      backend.series(id),
      backend.lastEventId(),
    ]);
    // Ids order every session's events: the stream goes on after the newest one drawn, or after now.
    const lastId = events.at(-1)?.id ?? lastEventId;
    return c.html(page(SessionPage({ detail, events, series, lastId, csrf: csrf(c), now: now() })));
  });

  app.get("/workers", async (c) => c.html(page(WorkersPage({ fleet: await backend.fleet(), csrf: csrf(c), now: now() }))));

  app.get("/fragments/sessions/:id/result/:iteration/:call", async (c) => {
    const iteration = Number(c.req.param("iteration"));
    const text = Number.isInteger(iteration) ? await backend.toolResult(c.req.param("id"), iteration, c.req.param("call")) : null;
    return c.html(toHtml(ResultBody({ text })));
  });

  app.get("/fragments/sessions/:id/diff/:commit", async (c) => {
    const commit = c.req.param("commit");
    const diff = /^[0-9a-f]{7,40}$/.test(commit) ? await backend.diff(c.req.param("id"), commit) : null;
    return c.html(toHtml(DiffBody({ diff })));
  });
}
