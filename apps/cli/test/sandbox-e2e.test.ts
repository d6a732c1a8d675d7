import { execFile, execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toolResults } from "@hatloop/context";
import { requireOrSkip } from "@hatloop/core/testing";
import { openStore } from "@hatloop/db";
import { sandboxSupport } from "@hatloop/tools";
import { HUNG_MS, runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";

// A scripted session whose agent tries to get out: it writes the file beside the repository, reads
// the user's SSH key and calls a host off the allow-list, then does its work. In the sandbox (the
// default where the machine allows it) each attempt comes back as a tool error that says what the
// sandbox allows, nothing outside changes, and the session goes on to complete. With --sandbox off
// the same write goes through, so the test shows what the sandbox stops.

const KEY = "the users ssh key SANDBOXTESTKEY";
const support = sandboxSupport();

async function escape(sandbox: "auto" | "off") {
  const { root, repo } = makeRepo();
  const home = mkdtempSync(join(tmpdir(), "hatloop-sandbox-home-"));
  const data = join(home, "hatloop-data");
  mkdirSync(join(home, ".ssh"));
  writeFileSync(join(home, ".ssh", "id_ed25519"), KEY);
  const outside = join(root, "outside.txt");
  const turns = [
    { text: "Trying the file beside the repository.", tools: [{ name: "run_command", input: { command: `echo pwned > ${outside}` } }] },
    { text: "Reading the key.", tools: [{ name: "run_command", input: { command: `cat ${join(home, ".ssh", "id_ed25519")}` } }] },
    { text: "Calling out.", tools: [{ name: "run_command", input: { command: "curl -sS -m 30 https://example.com/" } }] },
    { text: "Doing the work inside.", tools: [{ name: "run_command", input: { command: "echo done > result.txt" } }] },
    { text: "Done.", tools: [{ name: "task_complete", input: { summary: "tried, then worked inside" } }] },
  ];
  const scenario = join(home, "scenario.jsonl");
  writeFileSync(scenario, turns.map((t) => JSON.stringify(t)).join("\n") + "\n");
  const env = {
    HOME: home,
    HATLOOP_HOME: data,
    HATLOOP_CONFIG: join(home, "none.json"),
    HATLOOP_MODEL: `scripted:${scenario}`,
  };
  const run = await runHatloop(["run", "try to get out", "--repo", repo, "--hat", "editor", "--plain", "--sandbox", sandbox], env);
  expect(run.code, run.stderr).toBe(0);
  const store = await openStore({ url: join(data, "pglite") });
  try {
    const [session] = await store.sessions.list();
    expect(session!.status).toBe("completed");
    const messages = await store.messages.range(session!.id, 1, 1000);
    const results = messages
      .flatMap(({ message }) => toolResults(message))
      .map((r) => ({ isError: r.is_error === true, text: JSON.stringify(r.content) }));
    const branch = session!.branch;
    return {
      results,
      outside: readFileSync(outside, "utf8"),
      result: execFileSync("git", ["show", `${branch}:result.txt`], { cwd: repo, encoding: "utf8" }),
    };
  } finally {
    await store.close();
  }
}

describe.runIf(requireOrSkip(support.ok, `a sandbox (${support.ok ? "" : support.reason})`))("hatloop run in the sandbox", () => {
  it("turns each escape into a tool error the model can act on, and the session completes", async () => {
    const { results, outside, result } = await escape("auto");
    const [write, read, call, work] = results;
    expect(write).toMatchObject({ isError: true });
    expect(write!.text).toContain("Read-only file system");
    expect(write!.text).toContain("[hatloop sandbox]");
    expect(read).toMatchObject({ isError: true });
    expect(read!.text).toContain("No such file or directory");
    expect(JSON.stringify(results)).not.toContain("SANDBOXTESTKEY");
    expect(call).toMatchObject({ isError: true });
    expect(call!.text).toContain("deny network-outbound example.com:443");
    expect(work).toMatchObject({ isError: false });
    expect(outside).toBe("TOP-SECRET-OUTSIDE-THE-WORKTREE\n");
    expect(result).toBe("done\n");
  });

  it("lets the same write through with --sandbox off", async () => {
    const { results, outside } = await escape("off");
    expect(results[0]).toMatchObject({ isError: false });
    expect(outside).toBe("pwned\n");
    expect(JSON.stringify(results[1])).toContain("SANDBOXTESTKEY");
  });
});

// The kernel does not hold root to a process limit (RLIMIT_NPROC), so as root this session runs as
// nobody (setpriv), as hatloop should run: as an ordinary user. The bomb forks 300 sleepers at most
// (perl, which Debian always has, says where fork failed), so the machine stays safe even if the limit
// did not hold.
const FORK = `perl -e 'for (1..300) { my $p = fork; if (!defined $p) { print "stopped at $_: $!\\n"; exit 1 } if (!$p) { sleep 60; exit 0 } } print "all forked\\n"'`;
const asUser = process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];

describe.runIf(requireOrSkip(support.ok, `a sandbox (${support.ok ? "" : support.reason})`))("hatloop run at the sandbox's limits", () => {
  it("stops a fork bomb at maxProcesses and a file at maxFileMb, and the session completes", async () => {
    const { root, repo } = makeRepo();
    const home = join(root, "home");
    mkdirSync(home);
    const turns = [
      { text: "Forking.", tools: [{ name: "run_command", input: { command: FORK } }] },
      { text: "Filling the disk.", tools: [{ name: "run_command", input: { command: "head -c 3145728 /dev/zero > big.bin" } }] },
      { text: "Working.", tools: [{ name: "run_command", input: { command: "rm -f big.bin; echo done > result.txt" } }] },
      { text: "Done.", tools: [{ name: "task_complete", input: { summary: "hit the limits, then worked" } }] },
    ];
    const scenario = join(home, "scenario.jsonl");
    writeFileSync(scenario, turns.map((t) => JSON.stringify(t)).join("\n") + "\n");
    if (asUser.length) execFileSync("chown", ["-R", "65534:65534", root]);
    chmodSync(root, 0o755);
    const env = {
      PATH: process.env.PATH!,
      HOME: home,
      HATLOOP_HOME: join(home, "data"),
      HATLOOP_CONFIG: join(home, "none.json"),
      HATLOOP_MODEL: `scripted:${scenario}`,
      HATLOOP_DATABASE__LINGER: "0",
      HATLOOP_TOOLS__SANDBOX__MODE: "on",
      HATLOOP_TOOLS__SANDBOX__MAX_PROCESSES: "64",
      HATLOOP_TOOLS__SANDBOX__MAX_FILE_MB: "1",
    };
    const bin = new URL("../dist/bin.js", import.meta.url).pathname;
    const [program, ...args] = [...asUser, process.execPath, bin, "run", "hit the limits", "--repo", repo, "--hat", "editor", "--plain"];
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(program!, args, { env, cwd: root, timeout: HUNG_MS }, (error, _stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stderr }),
      );
      child.stdin?.end();
    });
    expect(run.code, run.stderr).toBe(0);
    const store = await openStore({ url: join(home, "data", "pglite") });
    try {
      const [session] = await store.sessions.list();
      expect(session!.status).toBe("completed");
      const messages = await store.messages.range(session!.id, 1, 1000);
      const [fork, fill, work] = messages.flatMap(({ message }) => toolResults(message)).map((r) => JSON.stringify(r.content));
      const stopped = /stopped at (\d+): Resource temporarily unavailable/.exec(fork!);
      expect(fork).toContain("[hatloop sandbox]");
      expect(Number(stopped?.[1])).toBeLessThanOrEqual(64);
      expect(fill).toContain("File size limit exceeded");
      expect(work).not.toContain("hatloop sandbox");
      const show = ["-c", "safe.directory=*", "show", `${session!.branch}:result.txt`];
      expect(execFileSync("git", show, { cwd: repo, encoding: "utf8" })).toBe("done\n");
    } finally {
      await store.close();
    }
  });
});
