import { execFileSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runTool, tempDir, toolContext } from "../test-support/fixtures.js";

/** Processes whose command line contains `marker` (a unique sleep duration). */
function processesMatching(marker: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

async function eventually(check: () => boolean, ms = 2_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe("run_command", () => {
  it("runs in the worktree with stdout and stderr interleaved, and reports the exit code", async () => {
    const root = tempDir();
    const ok = await runTool("run_command", { command: "pwd; echo out; echo err >&2; echo out2" }, toolContext(root));
    expect(ok.isError).toBe(false);
    expect(ok.content).toMatch(new RegExp(`^${root}\\nout\\nerr\\nout2\\n\\[exit code 0, \\d+\\.\\ds\\]$`));
    expect(ok.meta?.exitCode).toBe(0);

    const failed = await runTool("run_command", { command: "echo nope; exit 3" }, toolContext(root));
    expect(failed).toMatchObject({ isError: true, meta: { exitCode: 3 } });
    expect(failed.content).toMatch(/nope\n\[exit code 3/);
  });

  it("kills a hanging command and all its children at the timeout", async () => {
    const root = tempDir();
    const started = Date.now();
    const result = await runTool(
      "run_command",
      { command: "(sleep 29.71; echo child) & sleep 29.72; echo never", timeout_seconds: 1 },
      toolContext(root),
    );
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(result.isError).toBe(true);
    expect(result.meta).toMatchObject({ exitCode: null, timedOut: true });
    expect(result.content).toContain("[timed out after 1.0s; the command and every process it started were killed]");
    expect(result.content).not.toContain("never");
    expect(await eventually(() => processesMatching("29.7").length === 0)).toBe(true);
  });

  it("uses the factory's default timeout", async () => {
    const root = tempDir();
    const result = await runTool("run_command", { command: "sleep 29.81" }, toolContext(root), { commandTimeoutMs: 300 });
    expect(result.meta?.timedOut).toBe(true);
    expect(result.content).toContain("timed out after 0.3s");
  });

  it("is killed when the iteration is aborted", async () => {
    const root = tempDir();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const result = await runTool("run_command", { command: "sleep 29.91" }, toolContext(root, { signal: controller.signal }));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({ isError: true, meta: { aborted: true } });
    expect(result.content).toContain("[aborted; the command and every process it started were killed]");
    expect(await eventually(() => processesMatching("29.91").length === 0)).toBe(true);
  });

  it("kills background processes left behind when the command ends", async () => {
    const root = tempDir();
    const started = Date.now();
    const result = await runTool("run_command", { command: "sleep 29.61 & echo started" }, toolContext(root));
    expect(Date.now() - started).toBeLessThan(2_000); // the leftover must not hold the output pipe open
    expect(result.content).toMatch(/^started\n\[exit code 0/);
    expect(await eventually(() => processesMatching("29.61").length === 0)).toBe(true);
  });

  it("keeps the head and a longer tail of big output, with a note of what was cut", async () => {
    const root = tempDir();
    const result = await runTool("run_command", { command: "seq 1 100000" }, toolContext(root), { maxOutputChars: 1_000 });
    expect(result.content.startsWith("1\n2\n3\n")).toBe(true);
    expect(result.content).toMatch(/\n99999\n100000\n\[exit code 0/);
    const note = /\[\.\.\. ([\d,]+) characters cut from the middle \.\.\.\]/.exec(result.content);
    expect(note).not.toBeNull();
    const total = Array.from({ length: 100_000 }, (_, i) => `${i + 1}\n`).join("").length;
    expect(Number(note![1]!.replace(/,/g, ""))).toBe(total - 1_000);
    expect(result.content.length).toBeLessThan(1_200);
  });

  describe("environment", () => {
    const saved = { ...process.env };
    beforeEach(() => {
      Object.assign(process.env, { ANTHROPIC_API_KEY: "sk-secret", DATABASE_URL: "postgres://x", HATLOOP_TOKEN: "t", KEEP_ME: "yes" });
    });
    afterEach(() => {
      for (const key of ["ANTHROPIC_API_KEY", "DATABASE_URL", "HATLOOP_TOKEN", "KEEP_ME"]) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    });

    it("strips hatloop's secrets and sets CI=true", async () => {
      const root = tempDir();
      const result = await runTool("run_command", { command: "env" }, toolContext(root));
      expect(result.content).not.toMatch(/sk-secret|postgres:\/\/x|HATLOOP_TOKEN|ANTHROPIC_API_KEY|DATABASE_URL/);
      expect(result.content).toMatch(/^CI=true$/m);
      expect(result.content).toMatch(/^KEEP_ME=yes$/m);
    });
  });

  it("refuses destructive commands without running them", async () => {
    const root = tempDir();
    const result = await runTool("run_command", { command: "touch ran; sudo rm -rf /" }, toolContext(root));
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^command refused because/);
    const listing = await runTool("run_command", { command: "ls" }, toolContext(root));
    expect(listing.content).not.toContain("ran");
  });
});
