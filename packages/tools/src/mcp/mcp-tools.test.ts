import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import type { McpServerConfig, Tool, ToolContext } from "@hatloop/core";
import { connectMcpServers, type McpTools } from "./mcp-tools.js";
import { isolationAvailable } from "../shell/isolation.js";
import { McpSetupError, readProjectServers, sessionServers } from "./project-servers.js";

// Real MCP servers of ours (test-support/mcp-test-server.mjs, on the official SDK), over stdio and
// streamable HTTP, through hatloop's MCP client.

const fixture = new URL("../test-support/mcp-test-server.mjs", import.meta.url).pathname;
const stdio: McpServerConfig = { command: process.execPath, args: [fixture], env: {} };
const options = { cwd: tmpdir(), timeoutMs: 30_000 };

let open: McpTools[] = [];
let children: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(open.map((m) => m.close()));
  children.forEach((c) => c.kill());
  open = [];
  children = [];
});

async function connect(servers: Record<string, McpServerConfig>): Promise<McpTools> {
  const mcp = await connectMcpServers(servers, options);
  open.push(mcp);
  return mcp;
}

function context(): ToolContext {
  return {
    worktree: tmpdir(),
    sessionId: "s",
    iteration: 1,
    hat: "creator",
    signal: new AbortController().signal,
    services: {} as ToolContext["services"],
  };
}

function tool(mcp: McpTools, name: string): Tool {
  return mcp.tools.find((t) => t.spec.name === name)!;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("MCP servers over stdio", () => {
  it("offers the server's tools as mcp__server__tool, sorted, with their input schemas", async () => {
    const mcp = await connect({ test: stdio });
    expect(mcp.tools.map((t) => t.spec.name)).toEqual([
      "mcp__test__big",
      "mcp__test__crash",
      "mcp__test__echo",
      "mcp__test__fail",
      "mcp__test__leak",
      "mcp__test__pid",
    ]);
    expect(tool(mcp, "mcp__test__echo").spec).toMatchObject({
      description: "Echo the words back (from the MCP server test)",
      inputSchema: { type: "object", properties: { words: { type: "string" } }, required: ["words"] },
    });
    expect(JSON.stringify(tool(mcp, "mcp__test__echo").spec.inputSchema)).not.toContain("$schema");
  });

  it("calls a tool, and reports a tool's own error as an error result", async () => {
    const mcp = await connect({ test: stdio });
    expect(await tool(mcp, "mcp__test__echo").run({ words: "hello" }, context())).toEqual({ isError: false, content: "echo: hello" });
    expect(await tool(mcp, "mcp__test__fail").run({}, context())).toEqual({ isError: true, content: "the tool failed on purpose" });
  });

  it("answers a call with an error when the server dies mid-call, starts it again at the next call, and stops it at the end", async () => {
    const mcp = await connect({ test: stdio });
    const first = Number((await tool(mcp, "mcp__test__pid").run({}, context())).content);
    const crashed = await tool(mcp, "mcp__test__crash").run({}, context());
    expect(crashed.isError).toBe(true);
    expect(crashed.content).toMatch(/^MCP server test could not run crash: .*closed/i);
    const second = Number((await tool(mcp, "mcp__test__pid").run({}, context())).content);
    expect(second).not.toBe(first);
    expect(alive(second)).toBe(true);
    await mcp.close();
    expect(alive(second)).toBe(false);
    expect((await tool(mcp, "mcp__test__echo").run({ words: "late" }, context())).content).toMatch(/the session is ending/);
  });

  it("refuses to start, in one line, when a server cannot start", async () => {
    const failing = { ...stdio, env: { MCP_TEST_FAIL_START: "no licence" } };
    const start = connectMcpServers({ good: stdio, broken: failing }, options);
    await expect(start).rejects.toThrow(McpSetupError);
    await expect(start).rejects.toThrow(/^MCP server broken: .*\(it said: cannot start: no licence\)$/);
    await expect(connectMcpServers({ missing: { command: "no-such-mcp-server-binary", args: [], env: {} } }, options)).rejects.toThrow(
      /^MCP server missing: .*ENOENT/,
    );
  });
});

describe("MCP servers over streamable HTTP", () => {
  it("lists and calls the tools of a server at a URL", async () => {
    const child = spawn(process.execPath, [fixture, "http"], { stdio: ["ignore", "pipe", "inherit"] });
    children.push(child);
    const url = await new Promise<string>((resolve) => child.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())));
    const mcp = await connect({ remote: { type: "http", url, headers: { "x-test": "1" } } });
    expect(mcp.tools.map((t) => t.spec.name)).toContain("mcp__remote__echo");
    expect(await tool(mcp, "mcp__remote__echo").run({ words: "over http" }, context())).toEqual({
      isError: false,
      content: "echo: over http",
    });
  });

  it("says in one line when nothing answers at the URL", async () => {
    await expect(connectMcpServers({ down: { type: "http", url: "http://127.0.0.1:9/mcp", headers: {} } }, options)).rejects.toThrow(
      /^MCP server down: /,
    );
  });
});

describe(".mcp.json", () => {
  it("reads Claude Code's format with ${VAR} and ${VAR:-default} expanded; hatloop's config wins on a name", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hatloop-mcp-"));
    writeFileSync(
      join(dir, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          files: { command: "${TOOL_BIN}/server", args: ["--root", "${ROOT:-/srv}"], env: { TOKEN: "${TOKEN}" } },
          api: { type: "http", url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
        },
      }),
    );
    const env = { TOOL_BIN: "/opt/bin", TOKEN: "t0k", HOST: "mcp.example.com" };
    const passEnv = Object.keys(env);
    expect(readProjectServers(dir, env)).toEqual({
      files: { command: "/opt/bin/server", args: ["--root", "/srv"], env: { TOKEN: "t0k" } },
      api: { type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer t0k" } },
    });
    const configured = { api: { command: "mine", args: [], env: {} } };
    expect(await sessionServers([join(dir, "nowhere"), dir], { servers: configured, projectFile: true }, env, passEnv)).toMatchObject({
      files: {},
      api: { command: "mine" },
    });
    expect(await sessionServers([dir], { servers: {}, projectFile: false }, env, passEnv)).toEqual({});
  });

  it.runIf(requireOrSkip(isolationAvailable(), "unprivileged user namespaces (unshare)"))(
    "starts the project file's stdio servers isolated, as the agent's commands, and the user's own as they are",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "hatloop-mcp-"));
      const project = { files: { command: "server", args: ["--root", "."] }, api: { type: "http", url: "https://mcp.example.com/mcp" } };
      writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: project }));
      const mine = { mine: { command: "my-server", args: ["-v"], env: {} } };
      const servers = await sessionServers([dir], { servers: mine, projectFile: true }, {}, [], { isolate: true });
      expect(servers.files).toMatchObject({
        command: "unshare",
        args: expect.arrayContaining(["--pid", "--mount-proc", "server", "--root", "."]) as unknown,
      });
      expect(servers.api).toMatchObject({ type: "http", url: "https://mcp.example.com/mcp" });
      expect(servers.mine).toEqual(mine.mine);
      expect((await sessionServers([dir], { servers: {}, projectFile: true }, {}, [], { isolate: false })).files).toMatchObject({
        command: "server",
      });
    },
  );

  it("expands a session's .mcp.json from the agent's environment only: tools.passEnv, never hatloop's credentials", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hatloop-mcp-"));
    const args = ["${HOME}", "${DEPLOY_TOKEN:-unset}", "${ANTHROPIC_API_KEY:-unset}", "${HATLOOP_SERVE_TOKEN:-unset}"];
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { probe: { command: "server", args } } }));
    const env = { HOME: "/home/me", DEPLOY_TOKEN: "d3ploy", ANTHROPIC_API_KEY: "sk-ant-x", HATLOOP_SERVE_TOKEN: "s3rve" };
    const mcp = { servers: {}, projectFile: true };
    expect((await sessionServers([dir], mcp, env, [])).probe).toMatchObject({ args: ["/home/me", "unset", "unset", "unset"] });
    const passed = ["DEPLOY_TOKEN", "ANTHROPIC_API_KEY", "HATLOOP_*"];
    expect((await sessionServers([dir], mcp, env, passed)).probe).toMatchObject({ args: ["/home/me", "d3ploy", "unset", "unset"] });
  });

  it("explains in one line what is wrong with it", () => {
    const dir = mkdtempSync(join(tmpdir(), "hatloop-mcp-"));
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { a: { command: "${NOT_SET_ANYWHERE}" } } }));
    expect(() => readProjectServers(dir, {})).toThrow(/\.mcp\.json: mcpServers\.a: the environment variable NOT_SET_ANYWHERE is not set$/);
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { a: { type: "http" } } }));
    expect(() => readProjectServers(dir, {})).toThrow(/\.mcp\.json: mcpServers\.a: /);
    writeFileSync(join(dir, ".mcp.json"), "{ not json");
    expect(() => readProjectServers(dir, {})).toThrow(/\.mcp\.json is not valid JSON/);
    expect(readProjectServers(join(dir, "absent"), {})).toEqual({});
  });
});
