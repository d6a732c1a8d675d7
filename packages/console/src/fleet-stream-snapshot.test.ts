import { afterEach, describe, expect, it } from "vitest";
import { createConsole, type Console } from "./app.js";
import { ConsoleAuth } from "./auth.js";
import { FakeBackend } from "./test-support/fake-backend.js";

// A sessions table's live stream starts from what the table showed when it was drawn (its snapshot,
// named in the stream's address): only the rows that changed since are sent, not every row again.

const TOKEN = "t0ken-for-tests";
const HOST = "127.0.0.1:7420";
let open: Console | null = null;

afterEach(() => {
  open?.hub.stop();
  open = null;
});

function setUp() {
  const backend = new FakeBackend();
  const web = createConsole({ backend, auth: new ConsoleAuth(TOKEN, false), now: () => Date.now() });
  open = web;
  void web.hub.start(() => {});
  const request = (path: string, cookie?: string) =>
    web.app.request(`http://${HOST}${path}`, { headers: { host: HOST, ...(cookie ? { cookie } : {}) } });
  return { backend, request };
}

/** The first message of a live stream (the stream is closed after it). */
async function firstMessage(res: Response): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("\n\n")) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  await reader.cancel();
  return text;
}

/** Reads a live stream until a message satisfies `done`; what was read, messages apart by blank lines. */
async function readUntil(res: Response, done: (text: string) => boolean, timeoutMs = 5_000): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const timer = setTimeout(() => void reader.cancel(), timeoutMs);
  while (!done(text)) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  clearTimeout(timer);
  await reader.cancel();
  return text;
}

describe("a sessions table's live stream", () => {
  it("misses no change made while its first rows are read", async () => {
    const { backend, request } = setUp();
    backend.addSession("one", {}, { status: "running" });
    const login = await request(`/login?token=${TOKEN}`);
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    backend.afterSessionsRead = () => {
      backend.afterSessionsRead = null;
      backend.rows.get("one")!.session.iteration = 9;
      backend.emit("one", { type: "iteration.start", data: { hat: "creator" } } as never);
    };
    const text = await readUntil(await request("/live/fleet", cookie), (t) => t.includes("9 / 30"));
    const [first] = text.split("\n\n");
    expect(first).toContain('<tr id="s-one"');
    expect(first).not.toContain("9 / 30");
    expect(text).toContain("9 / 30");
  });

  it("sends the rows changed since the table was drawn, added first and taken out; a reconnection every row", async () => {
    const { backend, request } = setUp();
    for (const id of ["one", "two", "three"]) backend.addSession(id, {}, { status: "running" });
    const login = await request(`/login?token=${TOKEN}`);
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const page = await (await request("/?status=running", cookie)).text();
    const stream = /sse-connect="([^"]+)"/.exec(page)![1]!.replaceAll("&amp;", "&");
    expect(stream).toMatch(/^\/live\/fleet\?status=running&view=[\w-]+$/);

    backend.rows.get("one")!.session.iteration = 9;
    backend.rows.get("two")!.status = "paused";
    backend.addSession("four", {}, { status: "running" });
    const first = await firstMessage(await request(stream, cookie));
    expect(first).not.toContain('<tbody id="rows"');
    expect(first).toMatch(/<tr id="s-one" hx-swap-oob="true">/);
    expect(first).toContain("9 / 30");
    expect(first).toContain('<tr id="s-two" hx-swap-oob="delete">');
    expect(first).toMatch(/<tbody hx-swap-oob="afterbegin:#rows"><tr id="s-four"/);
    expect(first).not.toContain("s-three");
    expect(first).toContain('id="totals"');

    const again = await firstMessage(await request(stream, cookie));
    expect(again).toContain('<tbody id="rows" hx-swap-oob="true">');
    expect(again).toContain('<tr id="s-three"');
  });
});
