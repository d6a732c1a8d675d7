import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runHatloop, startHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";
import { writeScenario } from "./support/scenario.js";

// Hooks through the built binary, from a config file: webhooks on local HTTP servers (one that holds
// every request until the test lets it answer 500, one that accepts), shell commands that write
// their stdin to a file or fail. The loop runs to its end while a hook hangs; failures are reported
// as hook.failed events, printed and stored; the run's outcome and exit code do not change.

type Json = Record<string, unknown>;
let servers: Server[] = [];
afterEach(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  servers = [];
});

/** Records each POSTed body; answers `status` once `release()` is called (at once if `held` is false). */
async function webhook(status: number, held: boolean) {
  const bodies: Json[] = [];
  const waiting: Array<() => void> = [];
  let released = !held;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      bodies.push(JSON.parse(body) as Json);
      const answer = () => res.writeHead(status).end();
      if (released) answer();
      else waiting.push(answer);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify/token-in-path`;
  return {
    url,
    bodies,
    release: () => {
      released = true;
      waiting.splice(0).forEach((answer) => answer());
    },
  };
}

function setup(hooks: Json) {
  const { root, repo } = makeRepo();
  const home = mkdtempSync(join(tmpdir(), "hatloop-hooks-"));
  const config = join(home, "config.json");
  writeFileSync(config, JSON.stringify({ hooks }));
  const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: config };
  return { root, repo, env, scenario: writeScenario(root, 3, 0) };
}

type Event = { type: string; iteration: number; data: Json };
const eventsOf = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Event);

describe("lifecycle hooks", () => {
  it("run beside the loop: a hanging webhook does not hold it up, its failure and a failing command are reported, never fatal", async () => {
    const slow = await webhook(500, true);
    const done = await webhook(204, false);
    const dir = mkdtempSync(join(tmpdir(), "hatloop-hook-out-"));
    const { repo, env, scenario } = setup({
      onIteration: slow.url,
      onComplete: [done.url, `cat > ${join(dir, "complete.json")}`, "echo 'pager unreachable'; exit 7"],
      timeout: "5m", // the held requests wait for the test, not for a timeout
      retries: 1,
    });
    const live = startHatloop(
      ["run", "write three notes", "--repo", repo, "--hat", "editor", "--model", `scripted:${scenario}`, "--json"],
      env,
    );
    // The loop reaches its end while the first onIteration delivery is still waiting for an answer.
    await live.waitFor((e) => e.type === "session.end");
    slow.release();
    const r = await live.done;
    expect(r.code, r.stderr).toBe(0);
    const events = eventsOf(r.stdout);
    const end = events.findIndex((e) => e.type === "session.end");
    expect(events[end]?.data.status).toBe("completed");
    const iterations = events.filter((e) => e.type === "iteration.end").map((e) => e.iteration);

    // Every iteration was posted, in order, with the hook's name; each got 500 twice (one retry).
    expect(slow.bodies.filter((b) => b.hook === "onIteration").map((b) => b.iteration)).toEqual(iterations.flatMap((i) => [i, i]));
    const failed = events.filter((e) => e.type === "hook.failed");
    expect(failed.every((e) => events.indexOf(e) > end)).toBe(true);
    const port = new URL(slow.url).port;
    expect(failed.filter((e) => e.data.hook === "onIteration").map((e) => e.data)).toEqual(
      iterations.map(() => ({ hook: "onIteration", target: `webhook http://127.0.0.1:${port}`, attempts: 2, error: "HTTP 500" })),
    );
    expect(failed.filter((e) => e.data.hook === "onComplete").map((e) => e.data)).toEqual([
      { hook: "onComplete", target: "command echo 'pager unreachable'; exit 7", attempts: 2, error: "exit 7: pager unreachable" },
    ]);

    // onComplete: the webhook and the command got the session.end event.
    expect(done.bodies).toEqual([
      expect.objectContaining({ type: "session.end", hook: "onComplete", data: expect.objectContaining({ status: "completed" }) }),
    ]);
    const sent = JSON.parse(readFileSync(join(dir, "complete.json"), "utf8")) as Json;
    expect(sent).toMatchObject({ type: "session.end", hook: "onComplete", text: expect.stringMatching(/^hatloop: completed: /) });

    // Stored with the session's events, as the run printed them.
    const logs = await runHatloop(["logs", String(sent.sessionId).slice(0, 8)], env);
    expect(logs.stdout).toContain(
      "   ! hook onComplete (command echo 'pager unreachable'; exit 7) failed after 2 attempts: exit 7: pager unreachable",
    );
  });

  it("onPause fires once when a run stops at its budget", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hatloop-hook-out-"));
    const { repo, env, scenario } = setup({ onPause: `cat >> ${join(dir, "pause.jsonl")}; echo >> ${join(dir, "pause.jsonl")}` });
    const r = await runHatloop(
      ["run", "write three notes", "--repo", repo, "--hat", "editor", "--model", `scripted:${scenario}`, "--max-iterations", "1", "--json"],
      env,
    );
    expect(r.code, r.stderr).toBe(3);
    const calls = readFileSync(join(dir, "pause.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Event & Json);
    expect(calls).toEqual([
      expect.objectContaining({ type: "session.status", hook: "onPause", data: { status: "paused", reason: "budget:iterations" } }),
    ]);
  });

  it("onWaiting gets the agent's question when a headless run ends waiting for an answer", async () => {
    const web = await webhook(204, false);
    const { root, repo, env } = setup({ onWaiting: web.url, onPause: "exit 1" });
    const question = "Which licence should the notes carry: MIT or Apache-2.0?";
    const scenario = join(root, "ask.jsonl");
    writeFileSync(scenario, `${JSON.stringify({ text: "One choice is yours.", tools: [{ name: "ask_user", input: { question } }] })}\n`);
    const r = await runHatloop(
      ["run", "write the notes", "--repo", repo, "--hat", "editor", "--model", `scripted:${scenario}`, "--json"],
      env,
    );
    expect(r.code, r.stderr).toBe(4);
    expect(web.bodies).toEqual([
      expect.objectContaining({ type: "session.status", hook: "onWaiting", data: { status: "waiting", reason: question } }),
    ]);
    expect(eventsOf(r.stdout).filter((e) => e.type === "hook.failed")).toEqual([]); // onPause did not run
  });
});
