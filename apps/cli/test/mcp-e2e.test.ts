import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loopEventSchema, type LoopEvent } from "@hatloop/core";
import { toolResults } from "@hatloop/context";
import { openStore } from "@hatloop/db";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";

// `hatloop run` with the user's MCP servers: one from the repository's .mcp.json (stdio), one from
// hatloop's config (streamable HTTP), both the test server of packages/tools on the official SDK.
// The scripted model calls their tools; the answers go through the same pipeline as built-in tools'.

const server = new URL("../../../packages/tools/src/test-support/mcp-test-server.mjs", import.meta.url).pathname;
let children: ChildProcess[] = [];
afterEach(() => {
  children.forEach((c) => c.kill());
  children = [];
});

async function httpServer(): Promise<string> {
  const child = spawn(process.execPath, [server, "http"], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  return new Promise((resolve) => child.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())));
}

function setup(turns: unknown[], servers: Record<string, unknown>, mcpJson?: unknown): { repo: string; env: Record<string, string> } {
  const { repo } = makeRepo(mcpJson ? { ".mcp.json": JSON.stringify(mcpJson) } : {});
  const home = mkdtempSync(join(tmpdir(), "hatloop-home-"));
  writeFileSync(join(home, "config.json"), JSON.stringify({ mcp: { servers }, tools: { maxResultChars: 2_000 } }));
  const scenario = join(home, "scenario.jsonl");
  writeFileSync(scenario, turns.map((t) => JSON.stringify(t)).join("\n") + "\n");
  return { repo, env: { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "config.json"), HATLOOP_MODEL: `scripted:${scenario}` } };
}

/** The stdio test servers still running with a working directory under `dir`, by their pids here. */
function serversIn(dir: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(server) && readlinkSync(`/proc/${pid}/cwd`).startsWith(dir);
      } catch {
        return false; // gone, or not ours to look at
      }
    })
    .map(Number);
}

const stdioServer = { mcpServers: { local: { command: process.execPath, args: [server], env: { UNUSED: "${HOME}" } } } };

describe("hatloop run with MCP servers", () => {
  it("offers the servers' tools to the hat, and their answers are capped, redacted and stored like any tool's", async () => {
    const url = await httpServer();
    const turns = [
      {
        text: "Asking both servers.",
        tools: [
          { name: "mcp__local__echo", input: { words: "from stdio" } },
          { name: "mcp__web__echo", input: { words: "over http" } },
        ],
      },
      {
        text: "A long answer and a leaky one.",
        tools: [
          { name: "mcp__local__big", input: { chars: 9_000 } },
          { name: "mcp__local__leak", input: {} },
        ],
      },
      {
        text: "This one kills its server; the next call starts it again.",
        tools: [
          { name: "mcp__local__crash", input: {} },
          { name: "mcp__local__pid", input: {} },
        ],
      },
      { text: "Done.", tools: [{ name: "task_complete", input: { summary: "asked the MCP servers" } }] },
    ];
    const { repo, env } = setup(turns, { web: { type: "http", url } }, stdioServer);
    const run = await runHatloop(["run", "ask the MCP servers", "--repo", repo, "--hat", "editor", "--json"], env);
    expect(run.code, run.stderr).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => loopEventSchema.parse(JSON.parse(line)) as LoopEvent);
    const results = events.filter((e): e is Extract<LoopEvent, { type: "tool.result" }> => e.type === "tool.result");
    const result = (name: string) => results.find((e) => e.data.name === name)!.data;

    expect(result("mcp__local__echo")).toMatchObject({ isError: false, preview: "echo: from stdio" });
    expect(result("mcp__web__echo")).toMatchObject({ isError: false, preview: "echo: over http" });
    // Capped by tools.maxResultChars like a built-in tool's result (head and tail kept).
    expect(result("mcp__local__big").chars).toBeLessThan(2_500);
    expect(result("mcp__local__big").preview).toMatch(/^BEGIN x/);
    expect(result("mcp__local__crash")).toMatchObject({ isError: true });
    expect(result("mcp__local__crash").preview).toMatch(/^MCP server local could not run crash/);
    expect(result("mcp__local__pid").isError).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: "session.end", data: { status: "completed" } });

    const store = await openStore({ url: join(env.HATLOOP_HOME!, "pglite") });
    try {
      const [session] = await store.sessions.list();
      const messages = await store.messages.range(session!.id, 1, 1000);
      const answers = messages.flatMap(({ message }) => toolResults(message));
      const text = (id: number) => JSON.stringify(answers[id]!.content);
      // Normal tool_result blocks, in the stored conversation: the leak redacted before it was kept.
      expect(answers).toHaveLength(7);
      expect(text(3)).toContain("the deploy key is");
      expect(text(3)).not.toContain("AKIAIOSFODNN7EXAMPLE");
      expect(text(3)).not.toContain("ghp_a1B2");
      expect(text(2)).toContain("characters cut by hatloop");
      // The server the model reached last was stopped with the session: no stray process. (It says its
      // pid, but isolated in a PID namespace of its own that number means nothing here.)
      expect(Number(String(answers[5]!.content).trim())).toBeGreaterThan(0);
      expect(serversIn(dirname(repo))).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("keeps MCP tools from hats that do not allow them", async () => {
    const turns = [
      { text: "Trying.", tools: [{ name: "mcp__local__echo", input: { words: "x" } }] },
      { text: "Giving up.", tools: [{ name: "task_complete", input: { summary: "-" } }] },
    ];
    const { repo, env } = setup(turns, {}, stdioServer);
    const run = await runHatloop(["run", "try", "--repo", repo, "--hat", "planner", "--max-iterations", "2", "--json"], env);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as LoopEvent);
    const refused = events.find((e) => e.type === "tool.result" && e.data.name === "mcp__local__echo");
    expect(refused).toMatchObject({ data: { isError: true } });
    expect((refused as Extract<LoopEvent, { type: "tool.result" }>).data.preview).toMatch(/not available to the planner hat/);
  });

  it("refuses to start in one line (exit 2) when a server cannot start, and keeps nothing", async () => {
    const { repo, env } = setup([{ text: "-" }], {
      broken: { command: process.execPath, args: [server], env: { MCP_TEST_FAIL_START: "no licence" } },
    });
    const run = await runHatloop(["run", "a task", "--repo", repo, "--plain"], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^hatloop: MCP server broken: .*\(it said: cannot start: no licence\)$/m);
    expect(run.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(JSON.parse((await runHatloop(["ls", "--json"], env)).stdout)).toEqual([]);
  });

  it("expands the project's .mcp.json (which the agent can write) from the agent's environment only", async () => {
    // The server reports the variable's value as it fails to start: what the agent would have learnt.
    const probe = { command: process.execPath, args: [server], env: { MCP_TEST_FAIL_START: "token ${DEPLOY_TOKEN:-not passed}" } };
    const { repo, env: base } = setup([{ text: "-" }], {}, { mcpServers: { probe } });
    const env = { ...base, DEPLOY_TOKEN: "d3ploy" };
    const hidden = await runHatloop(["run", "a task", "--repo", repo, "--plain"], env);
    expect(hidden.stderr).toMatch(/\(it said: cannot start: token not passed\)$/m);
    const passed = await runHatloop(["run", "a task", "--repo", repo, "--plain"], { ...env, HATLOOP_TOOLS__PASS_ENV: '["DEPLOY_TOKEN"]' });
    expect(passed.stderr).toMatch(/\(it said: cannot start: token d3ploy\)$/m);
  });
});
