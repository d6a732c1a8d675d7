import { Hono, type Context } from "hono";
import { eventsJsonSchema, type Store } from "@hatloop/core";
import { actionOf, type ConsoleAuth, type ConsoleBackend } from "@hatloop/console";
import { jsonText } from "../output/print.js";
import { findHandoff, withOpenQuestion } from "../session/handoff.js";
import { publicSession, publicSessionDetails } from "./fields.js";

// The JSON API, versioned under /api/v1 (the unversioned /api/sessions paths of earlier versions are
// the same, read-only). Reads are open on loopback without a configured token, else need
// `Authorization: Bearer <token>`; actions (POST) always need the token (or a console login with its
// CSRF token). The documented fields only, redacted like everything printed; errors are
// `{ "error": "..." }` with the matching status. The event union is at /api/v1/events.schema.json.

const ACTIONS = new Set(["stop", "resume", "answer", "raise-budget", "retry", "rerun"]);

export function apiApp(store: Store, backend: ConsoleBackend, auth: ConsoleAuth): Hono {
  const api = new Hono();
  const send = (c: Context, status: number, body: unknown, headers: Record<string, string> = {}) =>
    c.body(jsonText(body, 2), status as 200, {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      ...headers,
    });
  const session = async (c: Context) => {
    const id = decodeURIComponent(c.req.param("id") ?? "");
    const found = await store.sessions.resolve(id);
    if (!found) return { error: send(c, 404, { error: `no session matches "${id}"` }) };
    if ("ambiguous" in found) return { error: send(c, 404, { error: `"${id}" matches several sessions`, candidates: found.ambiguous }) };
    return { session: found.session };
  };

  api.use("*", async (c: Context, next) => {
    if (c.req.method === "GET" && !auth.mayReadApi(c))
      return send(c, 401, { error: "a valid token is required: Authorization: Bearer <token>" }, { "www-authenticate": "Bearer" });
    return next();
  });
  api.onError((error, c) => send(c, 500, { error: error.message }));

  for (const prefix of ["", "/v1"]) {
    api.get(`${prefix}/sessions`, async (c) => send(c, 200, (await store.sessions.list({ limit: 200 })).map(publicSession)));
    api.get(`${prefix}/sessions/:id`, async (c) => {
      const found = await session(c);
      if (found.error) return found.error;
      const [checklist, checkpoint] = await Promise.all([
        store.checklist.list(found.session.id),
        store.checkpoints.latest(found.session.id),
      ]);
      return send(c, 200, publicSessionDetails(found.session, checklist, checkpoint));
    });
    api.get(`${prefix}/sessions/:id/handoff`, async (c) => {
      const found = await session(c);
      if (found.error) return found.error;
      const handoff = await findHandoff(store, found.session.id);
      if (!handoff) return send(c, 404, { error: `session ${found.session.id} has no handoff yet` });
      return send(c, 200, withOpenQuestion(handoff.handoff, found.session));
    });
  }
  api.get("/v1/sessions/:id/events", async (c) => {
    const found = await session(c);
    if (found.error) return found.error;
    const after = Number(c.req.query("after") ?? 0) || 0;
    const limit = Math.min(Math.max(Number(c.req.query("limit") ?? 500) || 500, 1), 5_000);
    return send(c, 200, await backend.events(found.session.id, after, limit));
  });
  api.get("/v1/workers", async (c) => send(c, 200, (await backend.fleet()) ?? { workers: [], queue: null }));
  api.get("/v1/events.schema.json", (c) => send(c, 200, eventsJsonSchema()));
  api.post("/v1/sessions/:id/:action", async (c) => {
    const refused = auth.actionRefusal(c);
    if (refused) return send(c, 401, { error: refused }, { "www-authenticate": "Bearer" });
    const kind = c.req.param("action");
    if (!ACTIONS.has(kind)) return send(c, 404, { error: `no such action: ${kind}` });
    const found = await session(c);
    if (found.error) return found.error;
    const body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    const action = actionOf(kind, { ...stringsOf(body), session: found.session.id });
    if (typeof action === "string") return send(c, 400, { error: action });
    const result = await backend.act(action);
    return send(c, result.ok ? 200 : 409, result);
  });
  api.all("*", (c) => {
    const path = new URL(c.req.url).pathname.replace(/\/+$/, "");
    if (c.req.method !== "GET" && /^\/api\/sessions(\/|$)/.test(path))
      return send(c, 405, { error: `${c.req.method} is not supported; this API is read-only` });
    return send(c, 404, { error: `no such endpoint: ${path}` });
  });
  return api;
}

/** A JSON body's values as a form's: numbers and strings as text. */
function stringsOf(body: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(body).flatMap(([key, value]) => (typeof value === "string" || typeof value === "number" ? [[key, String(value)]] : [])),
  );
}
