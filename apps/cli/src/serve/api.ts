import type { IncomingMessage, ServerResponse } from "node:http";
import { errorMessage } from "@hatloop/context";
import type { Store } from "@hatloop/core";
import { jsonText } from "../output/print.js";
import { findHandoff, withOpenQuestion } from "../session/handoff.js";
import { refusal, type ServeAccess } from "./access.js";
import { publicSession, publicSessionDetails } from "./fields.js";

// The read-only handoff API: sessions, one session, and a session's latest handoff, as JSON (the
// documented fields only, redacted like everything printed). Errors are JSON too ({ "error": "..." })
// with the matching status. Requests for another Host, or without the token when one is set, are refused.

export function apiHandler(store: Store, access: ServeAccess) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        ...headers,
      });
      res.end(jsonText(body, 2));
    };
    try {
      const refused = refusal(req, access);
      if (refused) return send(refused.status, { error: refused.error }, refused.status === 401 ? { "www-authenticate": "Bearer" } : {});
      if (req.method !== "GET") return send(405, { error: `${req.method} is not supported; this API is read-only` });
      const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/\/+$/, "");
      if (path === "/api/sessions") return send(200, (await store.sessions.list({ limit: 200 })).map(publicSession));
      const match = /^\/api\/sessions\/([^/]+)(\/handoff)?$/.exec(path);
      if (!match) return send(404, { error: `no such endpoint: ${path}` });
      const found = await store.sessions.resolve(decodeURIComponent(match[1]!));
      if (!found) return send(404, { error: `no session matches "${match[1]}"` });
      if ("ambiguous" in found) return send(404, { error: `"${match[1]}" matches several sessions`, candidates: found.ambiguous });
      const session = found.session;
      if (!match[2]) {
        const [checklist, checkpoint] = await Promise.all([store.checklist.list(session.id), store.checkpoints.latest(session.id)]);
        return send(200, publicSessionDetails(session, checklist, checkpoint));
      }
      const handoff = await findHandoff(store, session.id);
      if (!handoff) return send(404, { error: `session ${session.id} has no handoff yet` });
      return send(200, withOpenQuestion(handoff.handoff, session));
    } catch (error) {
      return send(500, { error: errorMessage(error) });
    }
  };
}
