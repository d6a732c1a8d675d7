import { execFileSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { childEnv } from "../shell/child-env.js";
import { runTool, tempDir, toolContext } from "../test-support/fixtures.js";

/** Processes whose command line contains `marker` (a unique sleep duration). */
function processesMatching(marker: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

/** Waits for a condition (never for a time); false only if it never held within five minutes. */
async function eventually(check: () => boolean): Promise<boolean> {
  const until = Date.now() + 5 * 60_000;
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
    // The commands would run for 49 minutes, past the runner's ceiling: only killing them passes.
    const result = await runTool(
      "run_command",
      { command: "(sleep 2971; echo child) & sleep 2972; echo never", timeout_seconds: 1 },
      toolContext(root),
    );
    expect(result.isError).toBe(true);
    expect(result.meta).toMatchObject({ exitCode: null, timedOut: true });
    expect(result.content).toContain("[timed out after 1.0s; the command and every process it started were killed]");
    expect(result.content).not.toContain("never");
    expect(await eventually(() => processesMatching("sleep 297").length === 0)).toBe(true);
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
    const running = runTool("run_command", { command: "sleep 2991" }, toolContext(root, { signal: controller.signal }));
    // Aborted while the command runs.
    expect(await eventually(() => processesMatching("sleep 2991").length > 0)).toBe(true);
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ isError: true, meta: { aborted: true } });
    expect(result.content).toContain("[aborted; the command and every process it started were killed]");
    expect(await eventually(() => processesMatching("sleep 2991").length === 0)).toBe(true);
  });

  it("kills background processes left behind when the command ends", async () => {
    const root = tempDir();
    // A leftover that held the output pipe open would keep this waiting for 49 minutes, past the runner's ceiling.
    const result = await runTool("run_command", { command: "sleep 2961 & echo started" }, toolContext(root));
    expect(result.content).toMatch(/^started\n\[exit code 0/);
    expect(await eventually(() => processesMatching("sleep 2961").length === 0)).toBe(true);
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
    // Fake credentials of the right shapes (none is real).
    const planted = {
      ANTHROPIC_API_KEY: "sk-ant-api03-Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0-AbCdEf",
      ANTHROPIC_AUTH_TOKEN: "auth-token-9f86d081884c7d659a2f",
      DATABASE_URL: "postgres://app:Pw9xQ2mZr7Lk@db:5432/app",
      HATLOOP_TOKEN: "hatloop-own-token-123",
      GITHUB_TOKEN: "ghp_Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0abcd",
      AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      PGPASSWORD: "Pw9xQ2mZr7Lk",
      NPM_TOKEN: "npm_Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0",
      KEEP_ME: "keep-me-value-42",
    };
    const saved = { ...process.env };
    beforeEach(() => {
      Object.assign(process.env, planted);
    });
    afterEach(() => {
      for (const key of Object.keys(planted)) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    });

    it("passes only an allow-listed environment: no credential of hatloop's or anyone's, CI=true", async () => {
      const root = tempDir();
      const result = await runTool("run_command", { command: "env" }, toolContext(root));
      for (const [key, value] of Object.entries(planted)) {
        expect(result.content).not.toContain(`${key}=`);
        expect(result.content).not.toContain(value);
      }
      expect(result.content).toMatch(/^CI=true$/m);
      expect(result.content).toMatch(/^PATH=/m);
      expect(result.content).toMatch(/^HOME=/m);
    });

    it("passes what the configuration allows, but never hatloop's own credentials", async () => {
      const root = tempDir();
      const env = childEnv(process.env, ["KEEP_ME", "GITHUB_TOKEN", "ANTHROPIC_API_KEY", "HATLOOP_TOKEN"]);
      const result = await runTool("run_command", { command: "env" }, toolContext(root), { env });
      expect(result.content).toMatch(/^KEEP_ME=keep-me-value-42$/m);
      expect(result.content).toContain(`GITHUB_TOKEN=${planted.GITHUB_TOKEN}`);
      expect(result.content).not.toMatch(/ANTHROPIC_API_KEY|HATLOOP_TOKEN|DATABASE_URL/);
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
