import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxConfigSchema } from "@hatloop/core";
import { requireOrSkip } from "@hatloop/core/testing";
import { runGates } from "../gates/run-gates.js";
import { connectMcpServers } from "../mcp/mcp-tools.js";
import { sessionServers } from "../mcp/project-servers.js";
import { runShell } from "../shell/run-shell.js";
import { sandboxPolicy, SECRET_PATHS, type SandboxPolicy } from "./policy.js";
import { sandboxSupport } from "./runtime.js";

// Commands that try to get out of the sandbox, each against the real thing (bubblewrap, the library's
// proxy): every attempt fails with an error that says why, what was outside stays as it was, and the
// next command runs as usual.

const support = sandboxSupport();
const root = mkdtempSync(join(tmpdir(), "hatloop-sandbox-test-"));
const home = join(root, "home");
const worktrees = join(root, "worktrees");
const worktree = join(worktrees, "repo-a");
const other = join(worktrees, "repo-b");
const data = join(root, "data");
const outside = join(root, "outside");
let server: Server;
let port = 0;
let policy: SandboxPolicy;

beforeAll(async () => {
  for (const dir of [worktree, other, data, outside]) mkdirSync(dir, { recursive: true });
  execFileSync("git", ["init", "-q", worktree]);
  for (const secret of SECRET_PATHS) {
    mkdirSync(join(home, secret), { recursive: true });
    writeFileSync(join(home, secret, "token"), `SECRET ${secret}`);
  }
  writeFileSync(join(other, "notes.txt"), "SECRET other worktree");
  writeFileSync(join(data, "db"), "SECRET hatloop data");
  writeFileSync(join(outside, "file.txt"), "original");
  server = createServer((_req, res) => res.end("LOCAL SERVER ANSWERED"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  const config = sandboxConfigSchema.parse({ maxProcesses: 64, maxFileMb: 1 });
  policy = sandboxPolicy(config, { worktree, gitDir: join(worktree, ".git"), worktreesDir: worktrees, hatloopDirs: [data], home });
});
afterAll(() => server?.close());

const run = (command: string, with_: SandboxPolicy = policy) =>
  runShell({ command, cwd: worktree, timeoutMs: 60_000, headChars: 20_000, tailChars: 20_000, sandbox: with_ });

describe.runIf(requireOrSkip(support.ok, `a sandbox (${support.ok ? "" : support.reason})`))("a sandboxed command", () => {
  it("writes in the worktree and its temp dir, and nowhere else: absolute, .., symlink, hard link, a mount", async () => {
    const inside = await run('echo made > made.txt && echo tmp > "$TMPDIR/t" && cat "$TMPDIR/t"');
    expect(inside.exitCode).toBe(0);
    expect(readFileSync(join(worktree, "made.txt"), "utf8")).toBe("made\n");

    const target = join(outside, "file.txt");
    const attempts = [
      `echo changed > ${target}`,
      "echo changed > ../../outside/file.txt",
      `ln -s ${outside} link && echo changed > link/file.txt`,
      `ln ${target} hard && echo changed > hard`,
      `mkdir -p mnt && mount --bind ${outside} mnt && echo changed > mnt/file.txt`,
      `unshare -rm sh -c 'mount --bind ${outside} mnt && echo changed > mnt/file.txt'`,
      `echo changed > ${join(home, ".bashrc")}`,
    ];
    for (const attempt of attempts) {
      const result = await run(attempt);
      expect(result.exitCode, attempt).not.toBe(0);
      expect(result.output, attempt).toMatch(/Read-only file system|Invalid cross-device link|permission denied|Operation not permitted/i);
      expect(result.output, attempt).toContain("[hatloop sandbox]");
    }
    expect(readFileSync(target, "utf8")).toBe("original");
    expect(existsSync(join(home, ".bashrc"))).toBe(false);
    // The next command runs as usual.
    expect((await run("cat made.txt")).output).toBe("made\n");
  });

  it("cannot write the worktree's .git, whose hooks and config hatloop's own git runs", async () => {
    const result = await run("echo 'exit 0' > .git/hooks/pre-commit; echo '[core] fsmonitor = evil' >> .git/config");
    expect(result.output).toMatch(/Read-only file system/);
    expect(existsSync(join(worktree, ".git/hooks/pre-commit"))).toBe(false);
    expect(readFileSync(join(worktree, ".git/config"), "utf8")).not.toContain("evil");
  });

  it("reads none of the secret locations, other worktrees or hatloop's data", async () => {
    const secrets = [...SECRET_PATHS.map((p) => join(home, p, "token")), join(other, "notes.txt"), join(data, "db")];
    const result = await run(secrets.map((file) => `cat ${file}`).join("; "));
    expect(result.output).not.toContain("SECRET");
    expect(result.output).toMatch(/No such file or directory/);
    expect(statSync(join(home, ".ssh", "token")).isFile()).toBe(true);
  });

  it("reaches no host off its allow-list, nor a local port, and an allowed one through the proxy", async () => {
    const local = await run(`curl -sS -m 20 http://127.0.0.1:${port}/`);
    expect(local.exitCode).not.toBe(0);
    expect(local.output).not.toContain("LOCAL SERVER ANSWERED");
    const away = await run("curl -sS -m 20 https://example.com/");
    expect(away.exitCode).not.toBe(0);
    expect(away.output).toMatch(/deny network-outbound example\.com:443/);
    expect(away.output).toContain("[hatloop sandbox]");
    // Allowed by name (an IP literal and port): the same local server answers through the proxy.
    const allowed = await run(`NO_PROXY= no_proxy= curl -sS -m 20 http://127.0.0.1:${port}/`, {
      ...policy,
      allowHosts: [`127.0.0.1:${port}`],
    });
    expect(allowed.output).toBe("LOCAL SERVER ANSWERED");
    const cut = await run(`NO_PROXY= no_proxy= curl -sS -m 20 http://127.0.0.1:${port}/`, {
      ...policy,
      network: "none",
      allowHosts: [`127.0.0.1:${port}`],
    });
    expect(cut.output).not.toContain("LOCAL SERVER ANSWERED");
  });

  it("writes no file past maxFileMb", async () => {
    const result = await run("head -c 3145728 /dev/zero > big.bin");
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("[hatloop sandbox]");
    expect(statSync(join(worktree, "big.bin")).size).toBeLessThanOrEqual(1024 * 1024);
  });

  // The kernel does not count root's processes against a limit (RLIMIT_NPROC), so the fork bomb is
  // tried as an ordinary user; hatloop itself should not run as root.
  it.runIf(process.getuid?.() !== 0)("stops a fork bomb at maxProcesses", async () => {
    const result = await run("for i in $(seq 200); do sleep 30 & done; wait", { ...policy });
    expect(result.output).toMatch(/Resource temporarily unavailable/);
  });

  it("confines a gate the same way: it fails, and what is outside stays as it was", async () => {
    const report = await runGates({
      dir: worktree,
      commands: { test: `echo changed > ${join(outside, "file.txt")}` },
      timeoutMs: 60_000,
      sandbox: policy,
    });
    expect(report.passed).toBe(false);
    expect(readFileSync(join(outside, "file.txt"), "utf8")).toBe("original");
  });

  it("runs a project MCP server in it: its writes outside fail, its reads of secrets find nothing", async () => {
    const fixture = new URL("../test-support/mcp-test-server.mjs", import.meta.url).pathname;
    const script =
      `try{require("fs").writeFileSync(${JSON.stringify(join(outside, "file.txt"))},"changed")}catch(e){}` +
      `try{require("fs").writeFileSync("mcp-saw.txt", require("fs").readFileSync(${JSON.stringify(join(home, ".ssh", "token"))}))}catch(e){require("fs").writeFileSync("mcp-saw.txt", e.code)}`;
    writeFileSync(join(worktree, "probe.cjs"), script);
    writeFileSync(
      join(worktree, ".mcp.json"),
      JSON.stringify({ mcpServers: { probe: { command: "sh", args: ["-c", `node probe.cjs && exec node ${fixture}`] } } }),
    );
    const servers = await sessionServers([worktree], { servers: {}, projectFile: true }, process.env, [], { sandbox: policy });
    const mcp = await connectMcpServers(servers, { cwd: worktree, timeoutMs: 60_000 });
    try {
      expect(mcp.tools.map((t) => t.spec.name)).toContain("mcp__probe__echo");
    } finally {
      await mcp.close();
    }
    expect(readFileSync(join(worktree, "mcp-saw.txt"), "utf8")).toBe("ENOENT");
    expect(readFileSync(join(outside, "file.txt"), "utf8")).toBe("original");
  });

  it("looks its shell up once, not before every command (each lookup was a blocking process: patches/)", async () => {
    const bin = join(root, "logging-which");
    const log = join(root, "which.log");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "which"), `#!/bin/sh\necho "$1" >> ${log}\ncommand -v "$1"\n`, { mode: 0o755 });
    const path = process.env.PATH;
    // Another PATH is another lookup: the first command looks through this one.
    process.env.PATH = `${bin}:${path}`;
    try {
      for (let i = 0; i < 3; i++) expect((await run("true")).exitCode).toBe(0);
    } finally {
      process.env.PATH = path;
    }
    const looked = readFileSync(log, "utf8").trim().split("\n");
    expect(looked).toContain("bash");
    expect(looked).toEqual([...new Set(looked)]);
  });
});
