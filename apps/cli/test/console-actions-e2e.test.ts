import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { act, startServe, type Served } from "./support/console.js";
import { bin, tuiRun } from "./support/tui-run.js";
import { until } from "./support/until.js";

// The console's actions over HTTP, on the embedded database, with the real binary and a scripted
// model: what each button does to a real session (the browser tests check the page's side of it).

let server: Served | null = null;
afterEach(() => server?.stop());

const statusOf = async (run: ReturnType<typeof tuiRun>) =>
  (JSON.parse((await run.hatloop(["ls", "--json"])).stdout) as Array<{ status: string; stopReason: string | null }>)[0]!;

describe("the console's actions", () => {
  it("answers a question of a session that ended to wait, and the session goes on to the end on this machine", async () => {
    const run = tuiRun([{ write: "a" }, { ask: "MIT or Apache-2.0?" }, { write: "b" }, { complete: true }]);
    const first = await run.hatloop(run.plainRunArgs());
    expect(first.code, first.stderr).toBe(4);
    const id = await run.sessionId();
    server = await startServe({ HATLOOP_HOME: run.home, HATLOOP_CONFIG: `${run.home}/none.json` });

    expect(await act(server, "answer", { session: id, answer: "" })).toMatchObject({ status: 400, text: "write an answer first" });
    const answered = await act(server, "answer", { session: id, answer: "MIT" });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.text).toMatch(/^answered; session \w{8} (resumed on this machine|.*started)/);
    await until("the session completes", async () => (await statusOf(run)).status === "completed");
    expect((await act(server, "answer", { session: id, answer: "MIT" })).text).toMatch(/has no open question|already answered/);
  });

  it("refuses to resume a session stopped at its budget, then raising the budget lets it go on", async () => {
    const run = tuiRun([{ write: "a" }, { write: "b" }, { write: "c" }, { complete: true }]);
    const args = run.plainRunArgs();
    const first = await run.hatloop([...args, "--max-iterations", "1"]);
    expect(first.code, first.stderr).not.toBe(0);
    expect(await statusOf(run)).toMatchObject({ status: "paused", stopReason: "budget:iterations" });
    const id = await run.sessionId();
    server = await startServe({ HATLOOP_HOME: run.home, HATLOOP_CONFIG: `${run.home}/none.json` });

    const refused = await act(server, "resume", { session: id });
    expect(refused).toMatchObject({ status: 409, text: expect.stringContaining("stopped at its iterations budget: raise it") });
    expect((await act(server, "raise-budget", { session: id, cost: "1" })).text).toContain("raise that one");
    expect((await act(server, "raise-budget", { session: id, iterations: "-2" })).status).toBe(400);
    const raised = await act(server, "raise-budget", { session: id, iterations: "10" });
    expect(raised.status, raised.text).toBe(200);
    expect(raised.text).toMatch(/^budget now 11 iterations/);
    await until("the session completes", async () => (await statusOf(run)).status === "completed");
  });

  it("stops a running session at the end of its iteration, and resumes it", async () => {
    const run = tuiRun([{ write: "a" }, { hold: "go" }, { write: "b" }, { complete: true }]);
    const args = run.plainRunArgs();
    // The run's own process, its output read as it comes: the gate opens once it has seen the stop.
    const child = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, ...run.vars } });
    let output = "";
    for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, "exit");
    await until("the session holds", async () => (await run.hatloop(["ls", "--json"])).stdout.includes('"running"'));
    const id = await run.sessionId();
    server = await startServe({ HATLOOP_HOME: run.home, HATLOOP_CONFIG: `${run.home}/none.json` });

    const stopped = await act(server, "stop", { session: id });
    expect(stopped.status, stopped.text).toBe(200);
    expect(stopped.text).toContain("stop requested");
    await until("the run sees the stop", () => output.includes("stop requested (hatloop stop)"));
    run.release("go");
    await exited;
    expect(await statusOf(run)).toMatchObject({ status: "paused" });
    expect((await act(server, "stop", { session: id })).text).toContain("not running (paused)");

    const resumed = await act(server, "resume", { session: id });
    expect(resumed.status, resumed.text).toBe(200);
    await until("the session completes", async () => (await statusOf(run)).status === "completed");
    expect(await act(server, "resume", { session: "ffffffff" })).toMatchObject({ status: 409, text: expect.stringContaining("ffffffff") });
  });
});
