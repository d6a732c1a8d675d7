import type { IncomingMessage, ServerResponse } from "node:http";
import type { Store } from "@hatloop/core";
import { findHandoff } from "../session/handoff.js";
import { displayStatus } from "../session/liveness.js";

// The read-only handoff API: sessions, one session, and a session's latest handoff, as JSON.
// Errors are JSON too ({ "error": "..." }) with the matching status.

export function apiHandler(store: Store) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
      res.end(JSON.stringify(body, null, 2));
    };
    try {
      if (req.method !== "GET") return send(405, { error: `${req.method} is not supported; this API is read-only` });
      const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/\/+$/, "");
      if (path === "/api/sessions") {
        const sessions = await store.sessions.list({ limit: 200 });
        return send(200, sessions.map((s) => ({ ...s, status: displayStatus(s) })));
      }
      const match = /^\/api\/sessions\/([^/]+)(\/handoff)?$/.exec(path);
      if (!match) return send(404, { error: `no such endpoint: ${path}` });
      const found = await store.sessions.resolve(decodeURIComponent(match[1]!));
      if (!found) return send(404, { error: `no session matches "${match[1]}"` });
      if ("ambiguous" in found) return send(404, { error: `"${match[1]}" matches several sessions`, candidates: found.ambiguous });
      const session = found.session;
      if (!match[2]) {
        const [checklist, checkpoint] = await Promise.all([store.checklist.list(session.id), store.checkpoints.latest(session.id)]);
        return send(200, { ...session, status: displayStatus(session), checklist, lastCheckpoint: checkpoint && { seq: checkpoint.seq, reason: checkpoint.reason, iteration: checkpoint.iteration, gitCommit: checkpoint.gitCommit, createdAt: checkpoint.createdAt } });
      }
      const handoff = await findHandoff(store, session.id);
      if (!handoff) return send(404, { error: `session ${session.id} has no handoff yet` });
      return send(200, handoff.handoff);
    } catch (error) {
      return send(500, { error: (error as Error).message });
    }
  };
}
