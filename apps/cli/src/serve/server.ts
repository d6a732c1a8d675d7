import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { ConsoleAuth, createConsole, hostRefusal, type ServeAccess } from "@hatloop/console";
import type { HatloopConfig } from "@hatloop/core";
import type { DbStore } from "@hatloop/db";
import { printError } from "../output/print.js";
import { apiApp } from "./api.js";
import { consoleBackend } from "./backend.js";

// `hatloop serve`'s HTTP server: every request passes the Host check first (DNS rebinding), then
// goes to the JSON API (/api) or the web console (everything else).

export interface Serving {
  server: Server;
  /** Stops following events and closes the server. */
  close(): Promise<void>;
}

export function serveConsole(
  store: DbStore,
  config: HatloopConfig,
  options: { access: ServeAccess; token: string; apiOpen: boolean },
): Serving {
  const backend = consoleBackend(store, config);
  const auth = new ConsoleAuth(options.token, options.apiOpen);
  const web = createConsole({ backend, auth });
  const root = new Hono();
  root.use("*", async (c, next) => {
    const refused = hostRefusal(c.req.header("host") ?? "", options.access);
    if (!refused) return next();
    if (new URL(c.req.url).pathname.startsWith("/api/")) return c.json({ error: refused }, 403);
    return c.text(refused, 403);
  });
  root.route("/api", apiApp(store, backend, auth));
  root.route("/", web.app);
  void web.hub.start((error) => printError(`serve: following events stopped: ${error instanceof Error ? error.message : String(error)}`));
  const listener = getRequestListener(root.fetch);
  const server = createServer((req, res) => void listener(req, res));
  return {
    server,
    close: async () => {
      web.hub.stop();
      // Stop accepting first, then drop the open ones: the other way round, a connection made in
      // between (a page's stream reconnecting) kept the server open.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await backend.close();
    },
  };
}
