import { createServer, request, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { requireOrSkip } from "@hatloop/core/testing";
import { hasChromium, launchBrowser, loggedIn, startServe, type Served } from "./support/console.js";
import { consoleSession, newestSessionId } from "./support/console-session.js";
import { leaks, plantSecrets } from "./support/secrets.js";

// Who may use the console, in a real browser and over plain HTTP: without the token a page is the
// login form and a stream is refused; a wrong token is refused; a POST from another origin, or
// without the page's CSRF token, does nothing; a Host that is not this server's is refused (DNS
// rebinding); a session this database does not hold is a 404; and a secret the agent printed reaches
// the page redacted.

const secrets = plantSecrets();

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A request with headers a browser's fetch would not let a test set (Host, Origin). */
function http(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers: options.headers }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The login cookie and CSRF token a browser holds after opening the printed link. */
async function loginOf(served: Served): Promise<{ cookie: string; csrf: string }> {
  const login = await http(served.login);
  expect(login.status).toBe(303);
  const cookie = String(login.headers["set-cookie"]).split(";")[0]!;
  const page = await http(`${served.base}/`, { headers: { cookie } });
  const csrf = /X-Hatloop-CSRF&quot;:&quot;([^&]+)&quot;/.exec(page.body)?.[1];
  expect(csrf, "the page carries its CSRF token").toBeDefined();
  return { cookie, csrf: csrf! };
}

describe.runIf(requireOrSkip(hasChromium(), "Chromium (/usr/bin/chromium: apt-get install chromium)"))(
  "the console's doors, in a browser and over HTTP",
  () => {
    let browser: Browser;
    let served: Served;
    let id: string;
    let elsewhere: Server;
    let elsewhereUrl: string;
    beforeAll(async () => {
      const session = consoleSession([{ command: `echo "the key is ${secrets.anthropicKey}"` }, { complete: true }]);
      const ran = await session.run();
      expect(ran.code, ran.stderr).toBe(0);
      id = await newestSessionId(session);
      served = await startServe(session.env);
      browser = await launchBrowser();
      // Another site's page (another origin on the same machine: the same site, so the cookie goes with
      // its requests, and only the Origin check and the CSRF token stand in the way).
      elsewhere = createServer((_req, res) => {
        res.setHeader("content-type", "text/html");
        res.end(
          `<form method="post" action="${served.base}/actions/stop"><input name="session" value="${id}"></form>` +
            "<script>document.forms[0].submit()</script>",
        );
      });
      await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
      const address = elsewhere.address();
      elsewhereUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
    });
    afterAll(async () => {
      await browser.close();
      await served.stop();
      await new Promise((resolve) => elsewhere.close(resolve));
    });

    it("without the token: a page is the login form (and goes on to it once logged in), a stream is refused", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${served.base}/sessions/${id}`);
      expect(new URL(page.url()).pathname).toBe("/login");
      await page.getByRole("heading", { name: "Log in to hatloop" }).waitFor();
      expect((await http(`${served.base}/live/fleet`)).status).toBe(401);
      expect((await http(`${served.base}/fragments/sessions/${id}/result/1/x`)).status).toBe(401);

      await page.getByLabel("token").fill(served.token);
      await page.getByRole("button", { name: "Log in" }).click();
      await page.waitForURL(`${served.base}/sessions/${id}`);
      await page.locator("#head").waitFor();
      await context.close();
    });

    it("a wrong token is refused: no login, the form again", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const response = await page.goto(`${served.base}/login?token=not-the-token`);
      expect(response?.status()).toBe(401);
      await page.getByText("That token is not this server's.").waitFor();
      await page.getByLabel("token").fill("still-not-the-token");
      await page.getByRole("button", { name: "Log in" }).click();
      await page.getByText("That token is not this server's.").waitFor();
      expect(await context.cookies()).toEqual([]);
      await page.goto(`${served.base}/`);
      expect(new URL(page.url()).pathname).toBe("/login");
      await context.close();
    });

    it("a POST from another site's page is refused, though the browser sends the login cookie", async () => {
      const page = await loggedIn(browser, served);
      const refused = page.waitForResponse((r) => r.url() === `${served.base}/actions/stop`);
      await page.goto(elsewhereUrl);
      const response = await refused;
      expect(response.status()).toBe(403);
      expect(await response.text()).toContain(`a request from ${elsewhereUrl.slice(0, -1)} may not act here`);
      await page.context().close();
    });

    it("over HTTP: an action needs the CSRF token and this origin, or the bearer token", async () => {
      const { cookie, csrf } = await loginOf(served);
      const act = (headers: Record<string, string>) =>
        http(`${served.base}/actions/stop`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
          body: `session=${id}`,
        });
      const noCsrf = await act({ cookie });
      expect(noCsrf.status).toBe(403);
      expect(noCsrf.body).toContain("CSRF token is missing or stale");
      const foreign = await act({ cookie, "x-hatloop-csrf": csrf, origin: "http://evil.example" });
      expect(foreign.status).toBe(403);
      expect(foreign.body).toContain("a request from http://evil.example may not act here");
      expect((await act({})).status).toBe(403);
      expect((await act({ authorization: "Bearer not-the-token" })).status).toBe(403);
      // Let through: what the action then says is its own business (a completed session has nothing to stop).
      expect((await act({ cookie, "x-hatloop-csrf": csrf, origin: served.base })).status).not.toBe(403);
      expect((await act({ authorization: `Bearer ${served.token}` })).status).not.toBe(403);
    });

    it("a page whose name was rebound to this address is refused in the browser, the login link too", async () => {
      // The browser resolves rebound.example to 127.0.0.1, as a rebinding attacker's DNS would make it.
      const rebinding = await launchBrowser(["--host-resolver-rules=MAP rebound.example 127.0.0.1"]);
      try {
        const page = await rebinding.newPage();
        const response = await page.goto(served.login.replace("127.0.0.1", "rebound.example"));
        expect(response?.status()).toBe(403);
        await page.getByText(`Host "rebound.example:${served.port}" is not this server's`).waitFor();
        expect(await page.context().cookies()).toEqual([]);
      } finally {
        await rebinding.close();
      }
    });

    it("over HTTP: another Host is refused everywhere", async () => {
      const host = { host: `rebound.example:${served.port}` };
      for (const path of ["/", `/sessions/${id}`, new URL(served.login).pathname + new URL(served.login).search, "/api/v1/sessions"]) {
        const answer = await http(`${served.base}${path}`, { headers: host });
        expect(answer.status, path).toBe(403);
        expect(answer.body).toMatch(/Host \\?"rebound\.example:\d+\\?" is not this server's/);
      }
      expect((await http(`${served.base}/api/v1/sessions`, { headers: { host: `localhost:${served.port}` } })).status).toBe(200);
    });

    it("a session this database does not hold is a 404, in the page and the API", async () => {
      const page = await loggedIn(browser, served);
      for (const missing of ["00000000-0000-4000-8000-000000000000", "deadbeef"]) {
        const response = await page.goto(`${served.base}/sessions/${missing}`);
        expect(response?.status()).toBe(404);
        await page.getByText(`No session matches ${missing}.`).waitFor();
        expect((await http(`${served.base}/api/v1/sessions/${missing}`)).status).toBe(404);
      }
      await page.context().close();
    });

    it("a key the agent printed reaches the page redacted: in the stream, and in the result opened whole", async () => {
      const page = await loggedIn(browser, served);
      await page.goto(`${served.base}/sessions/${id}`);
      const result = page.locator("#stream details", { hasText: "run_command ok" });
      await result.locator("summary").click();
      await result.locator(".result pre", { hasText: "[REDACTED:anthropic-key]" }).waitFor();
      const html = await page.content();
      expect(leaks(html, secrets)).toEqual([]);
      expect(html).toContain("the key is [REDACTED:anthropic-key]");
      await page.context().close();
    });
  },
);
