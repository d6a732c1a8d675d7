import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configSchema, EVENT_VERSION, type EventData, type LoopEvent } from "@hatloop/core";
import { loadConfig } from "../src/config/load.js";
import { hookFor } from "../src/hooks/hook-events.js";
import { createHookSink } from "../src/hooks/hook-sink.js";
import { targetLabel } from "../src/hooks/deliver.js";

// Lifecycle hooks: which event fires which hook, and real deliveries (a shell command reading its
// stdin, a local HTTP server that answers, fails, or hangs) that never hold the sink up.

const event = (type: string, data: Record<string, unknown>, iteration = 3): LoopEvent =>
  ({ v: EVENT_VERSION, sessionId: "s-1234567890", iteration, ts: 1_000, type, data }) as unknown as LoopEvent;
const end = (status: string) => event("session.end", { status, reason: "r", iterations: 3, costUsd: 0.1 });
const status = (s: string, reason: string | null = null) => event("session.status", { status: s, reason });

describe("which hook an event fires", () => {
  it("maps iterations, completions, failures, pauses and questions, firing a status's hook when the session enters it", () => {
    expect(hookFor(event("iteration.end", { hat: "creator", durationMs: 5 }), "running")).toBe("onIteration");
    expect(hookFor(end("completed"), "completed")).toBe("onComplete");
    expect(hookFor(end("failed"), "failed")).toBe("onFail");
    expect(hookFor(end("stopped"), "stopped")).toBe("onFail");
    expect(hookFor(status("waiting", "Which database should I use?"), "running")).toBe("onWaiting");
    expect(hookFor(status("paused", "paused by the user"), "running")).toBe("onPause");
    expect(hookFor(status("paused", "paused by the user"), null)).toBe("onPause");
    // A run that ends paused or waiting says so again, then ends: the hook fired when it entered the status.
    expect(hookFor(status("waiting", "waiting for an answer"), "waiting")).toBeNull();
    expect(hookFor(end("waiting"), "waiting")).toBeNull();
    expect(hookFor(end("paused"), "paused")).toBeNull();
    expect(hookFor(end("paused"), "running")).toBe("onPause");
    expect(hookFor(status("running"), "paused")).toBeNull();
    expect(hookFor(event("tool.call", { id: "t", name: "read_file", summary: "" }), "running")).toBeNull();
  });

  it("a hook is a command or a valid http(s) URL, one or a list; anything else is a config error naming the key", () => {
    expect(configSchema.parse({ hooks: { onFail: "./page-me.sh" } }).hooks.onFail).toEqual(["./page-me.sh"]);
    expect(configSchema.parse({}).hooks).toEqual({ timeout: 10_000, retries: 2 });
    const dir = mkdtempSync(join(tmpdir(), "hatloop-hooks-config-"));
    const file = join(dir, "config.json");
    writeFileSync(file, JSON.stringify({ hooks: { onComplete: ["notify-send done", "https://"] } }));
    expect(() => loadConfig({ repoDir: dir, env: { HATLOOP_CONFIG: file } })).toThrow(
      /^invalid config: hooks\.onComplete \(from .*config\.json\): expected a shell command or a valid http\(s\) URL$/,
    );
    writeFileSync(file, JSON.stringify({ hooks: { onComplete: [] } }));
    expect(() => loadConfig({ repoDir: dir, env: { HATLOOP_CONFIG: file } })).toThrow(/^invalid config: hooks\.onComplete/);
  });

  it("names a webhook by its origin only, since its path often carries a token", () => {
    expect(targetLabel("https://hooks.example.com/services/T000/B000/XXXXSECRET")).toBe("webhook https://hooks.example.com");
    expect(targetLabel("notify-send hatloop")).toBe("command notify-send hatloop");
  });
});

let servers: Server[] = [];
afterEach(async () => {
  for (const s of servers) s.closeAllConnections(); // the hanging requests too
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  servers = [];
});

/** A local server that answers each POST with the next of `answers` (a status, or "hang"), recording the bodies. */
async function server(
  answers: Array<number | "hang">,
): Promise<{ url: string; bodies: Array<Record<string, unknown>>; headers: string[] }> {
  const bodies: Array<Record<string, unknown>> = [];
  const headers: string[] = [];
  const s = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      bodies.push(JSON.parse(body) as Record<string, unknown>);
      headers.push(String(req.headers["x-hatloop-hook"]));
      const answer = answers[Math.min(bodies.length - 1, answers.length - 1)]!;
      if (answer === "hang") return; // never answers: the client's timeout must end it
      res.writeHead(answer).end();
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook/secret-token`, bodies, headers };
}

const hooksConfig = (hooks: Record<string, unknown>) => configSchema.parse({ hooks }).hooks;

describe("hook deliveries", () => {
  it("a command gets the event as JSON on stdin, with the hook's name in its environment", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hatloop-hooks-"));
    const out = join(dir, "event.json");
    const failures: Array<EventData<"hook.failed">> = [];
    const hooks = createHookSink(hooksConfig({ onComplete: `cat > ${out}; echo "$HATLOOP_HOOK $HATLOOP_EVENT" > ${out}.env` }), {
      cwd: dir,
      report: (f) => failures.push(f),
    });
    hooks.sink(end("completed"));
    await hooks.settle();
    const sent = JSON.parse(readFileSync(out, "utf8")) as Record<string, unknown>;
    expect(sent).toMatchObject({ type: "session.end", sessionId: "s-1234567890", hook: "onComplete", data: { status: "completed" } });
    expect(sent.text).toMatch(/^hatloop: completed: r after 3 iterations/);
    expect(readFileSync(`${out}.env`, "utf8").trim()).toBe("onComplete session.end");
    expect(failures).toEqual([]);
  });

  it("a webhook is POSTed the event; a 500 is retried and a failing command is reported with its exit and last line", async () => {
    const web = await server([500, 204]);
    const failures: Array<EventData<"hook.failed">> = [];
    const hooks = createHookSink(hooksConfig({ onFail: [web.url, "echo 'no route to pager' >&2; exit 3"], retries: 1 }), {
      cwd: tmpdir(),
      report: (f) => failures.push(f),
      backoffMs: 50,
    });
    hooks.sink(end("failed"));
    await hooks.settle();
    expect(web.bodies).toHaveLength(2); // the 500, then the retry that passed
    expect(web.bodies[1]).toMatchObject({ type: "session.end", hook: "onFail", data: { status: "failed" } });
    expect(web.headers).toEqual(["onFail", "onFail"]);
    expect(failures).toEqual([
      { hook: "onFail", target: expect.stringMatching(/^command echo/), attempts: 2, error: "exit 3: no route to pager" },
    ]);
  });

  it("a webhook that never answers times out and is reported; a backlog still under way when the run ends is abandoned, and said so", async () => {
    const web = await server(["hang"]);
    const failures: Array<EventData<"hook.failed">> = [];
    const hooks = createHookSink(hooksConfig({ onIteration: web.url, timeout: "300ms", retries: 1 }), {
      cwd: tmpdir(),
      report: (f) => failures.push(f),
      backoffMs: 20,
    });
    // Five iterations end at once; the sink only queues their deliveries (one at a time, in order).
    for (let i = 1; i <= 5; i++) hooks.sink(event("iteration.end", { hat: "creator", durationMs: 1 }, i));
    expect(failures).toEqual([]);
    // settle() waits about as long as one delivery may take (two timed-out attempts and a backoff), not five.
    await hooks.settle();
    const timedOut = failures.filter((f) => f.attempts > 0);
    expect(timedOut[0]).toEqual({
      hook: "onIteration",
      target: expect.stringMatching(/^webhook http:\/\/127\.0\.0\.1:\d+$/),
      attempts: 2,
      error: "no answer in 0.3s",
    });
    const abandoned = failures.at(-1)!;
    expect(abandoned.error).toMatch(/^\d+ still under way when the run ended; abandoned$/);
    expect(timedOut.length + Number(/^\d+/.exec(abandoned.error)![0])).toBe(5);
    expect(web.bodies.map((b) => b.iteration).slice(0, 2)).toEqual([1, 1]); // in order, the first one retried
    // What was abandoned is ended, not left running: no further request is sent.
    const sent = web.bodies.length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(web.bodies.length).toBe(sent);
  });

  it("a hook that falls 20 events behind drops the later ones and says so once", async () => {
    const web = await server(["hang"]);
    const failures: Array<EventData<"hook.failed">> = [];
    const hooks = createHookSink(hooksConfig({ onIteration: web.url, timeout: "200ms", retries: 0 }), {
      cwd: tmpdir(),
      report: (f) => failures.push(f),
    });
    for (let i = 1; i <= 25; i++) hooks.sink(event("iteration.end", { hat: "creator", durationMs: 1 }, i));
    expect(failures).toEqual([
      {
        hook: "onIteration",
        target: expect.stringMatching(/^webhook /),
        attempts: 0,
        error: "too slow: 20 events waiting, later ones dropped",
      },
    ]);
    await hooks.settle();
    expect(web.bodies.every((b) => (b.iteration as number) <= 20)).toBe(true);
  });
});
