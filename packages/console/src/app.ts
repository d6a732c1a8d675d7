import { Hono, type Context } from "hono";
import { compress } from "hono/compress";
import { secureHeaders } from "hono/secure-headers";
import { assetAt } from "./assets.js";
import type { ConsoleAuth } from "./auth.js";
import type { ConsoleBackend } from "./backend.js";
import { LiveHub } from "./live.js";
import { actionRoutes } from "./routes/action-routes.js";
import { RowSnapshots } from "./row-snapshots.js";
import { liveRoutes } from "./routes/live-routes.js";
import { pageRoutes } from "./routes/page-routes.js";

// The web console: server-rendered pages (hono/jsx) that htmx enhances, pushed live over SSE by one
// follower of the events table. `hatloop serve` mounts it beside the JSON API, behind the Host check.

export interface ConsoleOptions {
  backend: ConsoleBackend;
  auth: ConsoleAuth;
  now?: () => number;
}

export interface Console {
  app: Hono;
  hub: LiveHub;
}

export function createConsole(options: ConsoleOptions): Console {
  const { backend, auth } = options;
  const now = options.now ?? Date.now;
  const hub = new LiveHub(backend, now);
  const snapshots = new RowSnapshots(now);
  const app = new Hono();
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
      referrerPolicy: "same-origin",
    }),
  );
  app.get("/assets/*", compress(), (c) => {
    const asset = assetAt(new URL(c.req.url).pathname);
    if (!asset) return c.notFound();
    return c.body(asset.body, 200, { "content-type": asset.type, "cache-control": "public, max-age=31536000, immutable" });
  });
  actionRoutes(app, backend, auth);
  // Everything below needs a login (or the bearer token): pages go to the login form, the rest is refused.
  app.use("*", async (c: Context, next) => {
    if (auth.login(c) || auth.bearer(c)) return next();
    const path = new URL(c.req.url).pathname;
    if (c.req.method === "GET" && !path.startsWith("/live/") && !path.startsWith("/fragments/") && !c.req.header("hx-request"))
      return c.redirect(`/login?next=${encodeURIComponent(path + new URL(c.req.url).search)}`, 303);
    return c.text("log in first: open the link hatloop serve printed", 401);
  });
  app.use("/live/*", async (c, next) => {
    c.header("cache-control", "no-store");
    await next();
  });
  liveRoutes(app, backend, hub, snapshots, now);
  app.use("*", compress());
  pageRoutes(app, backend, auth, snapshots, now);
  return { app, hub };
}
