import type { Context, Hono } from "hono";
import type { ConsoleAuth } from "../auth.js";
import type { ActionResult, ConsoleAction, ConsoleBackend } from "../backend.js";
import { MessagePage } from "../pages/layout.js";
import { toHtml } from "../render.js";

// Logging in, and the actions a page's buttons and forms post. Each action needs the login and its
// CSRF token (auth.ts); its answer is one line for the page's notice area, also when refused.

const KINDS = ["stop", "resume", "answer", "raise-budget", "retry", "rerun"] as const;

export function actionRoutes(app: Hono, backend: ConsoleBackend, auth: ConsoleAuth): void {
  const loginPage = (c: Context, error: string | null, status: 200 | 401) =>
    c.html(
      `<!doctype html>${toHtml(
        MessagePage({
          title: "Log in to hatloop",
          message: error ?? "Paste the token hatloop serve printed (or open the link it printed).",
          children: (
            <form method="post" action="/login">
              <input type="hidden" name="next" value={safeNext(c.req.query("next"))} />
              <input name="token" type="password" required autocomplete="current-password" aria-label="token" size={40} />{" "}
              <button class="primary">Log in</button>
            </form>
          ),
        }),
      )}`,
      status,
    );

  app.get("/login", (c) => {
    const token = c.req.query("token");
    if (token === undefined) return loginPage(c, null, 200);
    return auth.logIn(c, token) ? c.redirect(safeNext(c.req.query("next")), 303) : loginPage(c, "That token is not this server's.", 401);
  });

  app.post("/login", async (c) => {
    const form = await c.req.parseBody();
    const token = typeof form.token === "string" ? form.token : "";
    if (!auth.logIn(c, token)) return loginPage(c, "That token is not this server's.", 401);
    return c.redirect(safeNext(typeof form.next === "string" ? form.next : undefined), 303);
  });

  app.post("/actions/:kind", async (c) => {
    const refused = auth.actionRefusal(c);
    if (refused) return c.html(notice({ ok: false, message: refused }), 403);
    const action = actionOf(c.req.param("kind"), await c.req.parseBody());
    if (typeof action === "string") return c.html(notice({ ok: false, message: action }), 400);
    const result = await backend.act(action);
    return c.html(notice(result), result.ok ? 200 : 409);
  });
}

/** Where to go after logging in: a path of this server only. */
function safeNext(next: string | undefined): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

function notice(result: ActionResult): string {
  const link = result.sessionId ? (
    <>
      {" "}
      <a href={`/sessions/${result.sessionId}`}>open it</a>
    </>
  ) : null;
  return toHtml(
    <p class={result.ok ? "ok" : "err"}>
      {result.message}
      {link}
    </p>,
  );
}

/** The action a form names, or why it is not one. */
export function actionOf(kind: string, form: Record<string, unknown>): ConsoleAction | string {
  if (!(KINDS as readonly string[]).includes(kind)) return `there is no action "${kind}"`;
  const text = (key: string) => (typeof form[key] === "string" ? form[key].trim() : "");
  const sessionId = text("session");
  if (!sessionId) return "which session? (the form sent none)";
  switch (kind as (typeof KINDS)[number]) {
    case "answer": {
      const answer = text("answer");
      return answer ? { kind: "answer", sessionId, answer } : "write an answer first";
    }
    case "raise-budget": {
      const iterations = text("iterations") ? Number(text("iterations")) : undefined;
      const cost = text("cost") ? Number(text("cost")) : undefined;
      if (iterations === undefined && cost === undefined) return "give more iterations or more dollars";
      if (iterations !== undefined && !(Number.isInteger(iterations) && iterations > 0)) return "iterations must be a whole number above 0";
      if (cost !== undefined && !(Number.isFinite(cost) && cost > 0)) return "dollars must be a number above 0";
      return {
        kind: "raise-budget",
        sessionId,
        raise: { ...(iterations === undefined ? {} : { maxIterations: iterations }), ...(cost === undefined ? {} : { maxCostUsd: cost }) },
      };
    }
    default:
      return { kind: kind as "stop" | "resume" | "retry" | "rerun", sessionId };
  }
}
