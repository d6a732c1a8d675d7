import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { redactSecrets } from "@hatloop/context";
import { tempDir, writeFiles } from "../test-support/fixtures.js";
import { formatGateReport } from "./format-report.js";
import { runGates, takeBaseline, type GateBaseline } from "./run-gates.js";

/** A gate timeout only so that a hung check still ends, however loaded the machine; never a speed claim. */
const HUNG_MS = 5 * 60_000;

const testFile = (body: string) => `import { test } from "node:test";\nimport assert from "node:assert/strict";\n${body}\n`;

const ADD_OK = 'test("adds", () => assert.equal(1 + 1, 2));';
const ADD_BROKEN = 'test("adds", () => assert.equal(1 + 1, 3));';
const SUB_OK = 'test("subtracts", () => assert.equal(3 - 1, 2));';
const SUB_BROKEN = 'test("subtracts", () => assert.equal(3 - 1, 5));';

function nodeProject(body: string): string {
  const dir = tempDir();
  writeFiles(dir, { "math.test.mjs": testFile(body) });
  return dir;
}

const commands = { test: "node --test" };

/** Whether a process whose command line contains `marker` (a unique sleep duration) runs. */
function running(marker: string): boolean {
  const out = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
  return out.split("\n").some((line) => line.includes(marker) && !line.includes("ps -eo"));
}

describe("runGates", () => {
  it("fails on a failing node --test project, then passes once it is fixed", async () => {
    const dir = nodeProject(`${ADD_OK}\n${SUB_BROKEN}`);
    const failing = await runGates({ dir, commands, timeoutMs: HUNG_MS });
    expect(failing.passed).toBe(false);
    expect(failing.checks).toHaveLength(1);
    expect(failing.checks[0]).toMatchObject({ name: "test", command: "node --test", exitCode: 1, passed: false, acceptable: false });
    expect(failing.checks[0]!.newFailures).toContain("not ok - subtracts");
    expect(failing.checks[0]!.output).toContain("not ok 2 - subtracts");

    writeFiles(dir, { "math.test.mjs": testFile(`${ADD_OK}\n${SUB_OK}`) });
    const passing = await runGates({ dir, commands, timeoutMs: HUNG_MS });
    expect(passing.passed).toBe(true);
    expect(passing.checks[0]).toMatchObject({ passed: true, acceptable: true, exitCode: 0, newFailures: [] });
  });

  it("accepts a failure that existed before the session, and blocks a new one", async () => {
    const dir = nodeProject(`${ADD_OK}\n${SUB_BROKEN}`);
    const baseline = await takeBaseline({ dir, commands, timeoutMs: HUNG_MS });
    expect(baseline.checks.test).toMatchObject({ command: "node --test", passed: false });
    const stored = JSON.parse(JSON.stringify(baseline)) as GateBaseline;

    const same = await runGates({ dir, commands, timeoutMs: HUNG_MS, baseline: stored });
    expect(same.passed).toBe(true);
    expect(same.checks[0]).toMatchObject({ passed: false, acceptable: true, newFailures: [] });
    expect(formatGateReport(same)).toMatch(/^QUALITY_PASSED: test failed before this session too, with no new failures \(accepted\)/);

    writeFiles(dir, { "math.test.mjs": testFile(`${ADD_BROKEN}\n${SUB_BROKEN}`) });
    const worse = await runGates({ dir, commands, timeoutMs: HUNG_MS, baseline: stored });
    expect(worse.passed).toBe(false);
    expect(worse.checks[0]!.acceptable).toBe(false);
    expect(worse.checks[0]!.newFailures).toContain("not ok - adds");
    expect(worse.checks[0]!.newFailures).not.toContain("not ok - subtracts");
  });

  it("recognises its baseline as stored, secrets redacted, in the command and the failure lines", async () => {
    const token = "Qm3xT9vLk2Rp8Zw4Nc7Yb1Hd6Fs5Gj0A";
    const dir = nodeProject(`test("uses the token", () => assert.equal("${token}", "other"));`);
    const command = { test: `API_TOKEN=${token} node --test` };
    const baseline = await takeBaseline({ dir, commands: command, timeoutMs: HUNG_MS });
    const stored = JSON.parse(JSON.stringify(baseline, (_, v: unknown) => (typeof v === "string" ? redactSecrets(v) : v))) as GateBaseline;
    expect(JSON.stringify(stored)).not.toContain(token);
    const same = await runGates({ dir, commands: command, timeoutMs: HUNG_MS, baseline: stored });
    expect(same.checks[0]).toMatchObject({ passed: false, acceptable: true, newFailures: [] });
  });

  it("ignores a baseline taken with a different command", async () => {
    const dir = nodeProject(SUB_BROKEN);
    const baseline = await takeBaseline({ dir, commands: { test: "node --test ." }, timeoutMs: HUNG_MS });
    const report = await runGates({ dir, commands, timeoutMs: HUNG_MS, baseline });
    expect(report.passed).toBe(false);
  });

  it("times out a hanging check, kills it and blocks", async () => {
    const dir = tempDir();
    // The check would run for 49 minutes, past the runner's ceiling: only killing it at the timeout passes.
    const report = await runGates({ dir, commands: { build: "sleep 2941", lint: "true" }, timeoutMs: 500 });
    expect(report.passed).toBe(false);
    expect(report.checks.map((c) => [c.name, c.passed, c.timedOut])).toEqual([
      ["lint", true, false],
      ["build", false, true],
    ]);
    expect(formatGateReport(report)).toContain("## BUILD FAILED: `sleep 2941` (timed out; the process tree was killed)");
  });

  it("skips missing commands, which is not a failure", async () => {
    const report = await runGates({ dir: tempDir(), commands: {}, timeoutMs: 1_000 });
    expect(report).toEqual({ passed: true, checks: [] });
  });

  it("rejects when aborted", async () => {
    const controller = new AbortController();
    const gates = runGates({ dir: tempDir(), commands: { test: "sleep 29.42" }, timeoutMs: HUNG_MS, signal: controller.signal });
    // Aborted while the gate's command runs (polled: the command shows up as a process).
    while (!running("sleep 29.42")) await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    await expect(gates).rejects.toThrow("the quality gates were aborted");
  });
});
