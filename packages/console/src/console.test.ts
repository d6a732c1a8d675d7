import { afterEach, describe, expect, it } from "vitest";
import { createConsole, type Console } from "./app.js";
import { ConsoleAuth } from "./auth.js";
import { FakeBackend } from "./test-support/fake-backend.js";

// The console over a fake backend, through its HTTP interface (no browser: chromium-e2e in apps/cli
// drives the real one): who may see and do what, what the pages show, what the live streams push.

const TOKEN = "t0ken-for-tests";
const HOST = "127.0.0.1:7420";
let open: Console | null = null;

function setUp() {
  const backend = new FakeBackend();
  const web = createConsole({ backend, auth: new ConsoleAuth(TOKEN, false), now: () => Date.now() });
  open = web;
  void web.hub.start(() => {});
  const request = (path: string, init: RequestInit & { cookie?: string } = {}) =>
    web.app.request(`http://${HOST}${path}`, {
      ...init,
      headers: { host: HOST, ...(init.cookie ? { cookie: init.cookie } : {}), ...(init.headers as Record<string, string> | undefined) },
    });
  const logIn = async () => {
    const res = await request(`/login?token=${TOKEN}`);
    const cookie = res.headers.get("set-cookie")!;
    const page = await (await request("/", { cookie: cookie.split(";")[0]! })).text();
    const csrf = /X-Hatloop-CSRF&quot;:&quot;([^&]+)&quot;/.exec(page)![1]!;
    return { cookie: cookie.split(";")[0]!, setCookie: cookie, csrf };
  };
  return { backend, web, request, logIn };
}

afterEach(() => {
  open?.hub.stop();
  open = null;
});

/** Reads a live stream's messages until `done` says enough (the stream stays open). */
async function readEvents(res: Response, done: (text: string) => boolean): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!done(text)) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  await reader.cancel();
  return text;
}

describe("the console's doors", () => {
  it("sends a page to the login, and the token once for an HttpOnly, SameSite=Strict cookie", async () => {
    const { request, logIn } = setUp();
    const first = await request("/sessions/abc");
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/login?next=%2Fsessions%2Fabc");
    expect((await request("/login?token=wrong")).status).toBe(401);
    const { setCookie, cookie } = await logIn();
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect((await request("/", { cookie })).status).toBe(200);
    // After logging in, only a path of this server is followed.
    const next = await request(`/login?token=${TOKEN}&next=//evil.example/`);
    expect(next.headers.get("location")).toBe("/");
    expect((await request("/live/fleet")).status).toBe(401);
  });

  it("acts only with the login's CSRF token and no foreign Origin, or with the bearer token", async () => {
    const { backend, request, logIn } = setUp();
    backend.addSession("s-1");
    const { cookie, csrf } = await logIn();
    const post = (headers: Record<string, string>, withCookie = true) =>
      request("/actions/stop", {
        method: "POST",
        body: new URLSearchParams({ session: "s-1" }),
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        ...(withCookie ? { cookie } : {}),
      });
    expect((await post({})).status).toBe(403);
    expect((await post({ "x-hatloop-csrf": "stale" })).status).toBe(403);
    expect((await post({ "x-hatloop-csrf": csrf, origin: "http://evil.example" })).status).toBe(403);
    expect((await post({ "x-hatloop-csrf": csrf }, false)).status).toBe(403);
    expect(backend.actions).toEqual([]);
    const done = await post({ "x-hatloop-csrf": csrf, origin: `http://${HOST}` });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("stop done");
    expect((await post({ authorization: `Bearer ${TOKEN}` }, false)).status).toBe(200);
    expect(backend.actions).toEqual([
      { kind: "stop", sessionId: "s-1" },
      { kind: "stop", sessionId: "s-1" },
    ]);
  });

  it("says what is wrong with an action's form, in one line", async () => {
    const { request, logIn } = setUp();
    const { cookie, csrf } = await logIn();
    const post = async (kind: string, form: Record<string, string>) => {
      const res = await request(`/actions/${kind}`, {
        method: "POST",
        body: new URLSearchParams(form),
        headers: { "content-type": "application/x-www-form-urlencoded", "x-hatloop-csrf": csrf },
        cookie,
      });
      return { status: res.status, text: await res.text() };
    };
    expect(await post("raise-budget", { session: "s-1", iterations: "2.5" })).toMatchObject({
      status: 400,
      text: expect.stringContaining("whole number"),
    });
    expect(await post("answer", { session: "s-1", answer: " " })).toMatchObject({
      status: 400,
      text: expect.stringContaining("write an answer"),
    });
    expect(await post("delete-everything", { session: "s-1" })).toMatchObject({ status: 400 });
  });
});

describe("the pages", () => {
  it("list the sessions with their worker, cost against budget and waiting question, escaped", async () => {
    const { backend, request, logIn } = setUp();
    backend.addSession(
      "s-1",
      {
        title: "<script>alert(1)</script>",
        question: { text: "Postgres or SQLite?", askedAt: "", iteration: 2, answer: null, answeredAt: null, answeredBy: null },
      },
      { status: "waiting", worker: "w-a" },
    );
    const { cookie } = await logIn();
    const html = await (await request("/", { cookie })).text();
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("asks: Postgres or SQLite?");
    expect(html).toContain("$0.42 / $5.00");
    expect(html).toContain("w-a");
  });

  it("filter by status, worker, repository and text, and a filter change gets the table alone", async () => {
    const { backend, request, logIn } = setUp();
    backend.addSession("aaaa-1", { title: "fix the flaky auth test" }, { status: "running", worker: "w-a", repo: "git@x:org/api.git" });
    backend.addSession("bbbb-2", { title: "write the migration guide" }, { status: "paused", worker: "w-b", repo: "git@x:org/docs.git" });
    const { cookie } = await logIn();
    const ids = async (query: string, fragment = false) => {
      const html = await (await request(`/?${query}`, { cookie, headers: fragment ? { "hx-request": "true" } : {} })).text();
      return [...html.matchAll(/id="s-([^"]+)"/g)].map((m) => m[1]);
    };
    expect(await ids("")).toEqual(["aaaa-1", "bbbb-2"]);
    expect(await ids("status=paused")).toEqual(["bbbb-2"]);
    expect(await ids("worker=w-a")).toEqual(["aaaa-1"]);
    expect(await ids("repo=docs")).toEqual(["bbbb-2"]);
    expect(await ids("text=flaky%20auth")).toEqual(["aaaa-1"]);
    expect(await ids("text=bbbb")).toEqual(["bbbb-2"]);
    const fragment = await (await request("/?status=running", { cookie, headers: { "hx-request": "true" } })).text();
    expect(fragment).toMatch(/^<div id="sessions"/);
  });

  it("serve their scripts under hashed names for good, compressed, and nothing else", async () => {
    const { request, logIn } = setUp();
    const { cookie } = await logIn();
    const html = await (await request("/", { cookie })).text();
    const script = /src="(\/assets\/[0-9a-f]+\/htmx\.min\.js)"/.exec(html)![1]!;
    const res = await request(script, { headers: { "accept-encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/immutable/);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect((await request("/assets/0000/htmx.min.js")).status).toBe(404);
    expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self'/);
  });
});

describe("the live streams", () => {
  it("show a grading's verdicts criterion by criterion, the unmet ones open", async () => {
    const { backend, request, logIn } = setUp();
    backend.addSession("s-1");
    const { cookie } = await logIn();
    const res = await request("/live/sessions/s-1?after=0", { cookie });
    const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const verdicts = [
      { criterion: "names <every> flag", met: true, reason: "UPGRADE.md lists them" },
      { criterion: "has examples", met: false, reason: "none for --legacy" },
    ];
    const data = {
      round: 1,
      satisfied: false,
      verdicts,
      revisions: 1,
      maxRevisions: 3,
      action: "revise" as const,
      model: "m",
      usage,
      costUsd: 0,
    };
    setTimeout(() => backend.emit("s-1", { type: "grader.verdict", data, iteration: 3 }), 50);
    const text = await readEvents(res, (t) => t.includes("none for --legacy"));
    expect(text).toContain("1/2 criteria met");
    expect(text).toContain("revision 1 of 3");
    expect(text).toContain('<details open="">');
    expect(text).toContain("✓ names &lt;every&gt; flag");
    expect(text).toContain("✗ has examples");
  });

  it("push a session's new events to its page, after what was stored since the page was drawn", async () => {
    const { backend, request, logIn } = setUp();
    backend.addSession("s-1");
    backend.emit("s-1", { type: "iteration.start", data: { hat: "creator" }, iteration: 1 });
    const { cookie } = await logIn();
    const res = await request("/live/sessions/s-1?after=0", { cookie });
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    setTimeout(() => backend.emit("s-1", { type: "tool.call", data: { id: "t1", name: "read_file", summary: "src/<b>.ts" } }), 50);
    const text = await readEvents(res, (t) => t.includes("read_file"));
    expect(text).toContain("Iteration 1 · creator");
    expect(text).toContain("&gt; read_file src/&lt;b&gt;.ts");
    expect(text.indexOf("Iteration 1")).toBeLessThan(text.indexOf("read_file"));
  });

  it("swap a changed row in place, add a new one, and take out one that leaves the page's filter", async () => {
    const { backend, request, logIn } = setUp();
    backend.addSession("one", {}, { status: "running" });
    backend.addSession("two", {}, { status: "running" });
    const { cookie } = await logIn();
    const res = await request("/live/fleet?status=running", { cookie });
    setTimeout(() => {
      backend.rows.get("one")!.session.iteration = 9;
      backend.addSession("three", {}, { status: "running" });
      backend.rows.get("two")!.status = "paused";
      backend.emit("one", { type: "iteration.start", data: { hat: "creator" } });
      backend.emit("two", { type: "session.status", data: { status: "paused", reason: null } });
      backend.emit("three", { type: "session.status", data: { status: "running", reason: null } });
    }, 50);
    const text = await readEvents(res, (t) => t.includes('<tr id="s-two" hx-swap-oob="delete">'));
    const live = text.slice(text.indexOf("</tbody>"));
    expect(live).toMatch(/<tr id="s-one" hx-swap-oob="true">/);
    expect(live).toContain("9 / 30");
    expect(live).toMatch(/<tbody hx-swap-oob="afterbegin:#rows"><tr id="s-three"/);
    expect(live).toContain('<tr id="s-two" hx-swap-oob="delete">');
  });
});
