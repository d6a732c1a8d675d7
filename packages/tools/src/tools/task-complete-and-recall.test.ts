import type { GateCheck, GateReport } from "@hatloop/core";
import { describe, expect, it } from "vitest";
import { runTool, tempDir, toolContext } from "../test-support/fixtures.js";

function check(overrides: Partial<GateCheck>): GateCheck {
  return {
    name: "test",
    command: "npm test",
    exitCode: 0,
    passed: true,
    acceptable: true,
    timedOut: false,
    durationMs: 1_200,
    newFailures: [],
    output: "",
    ...overrides,
  };
}

describe("task_complete", () => {
  it("returns QUALITY_PASSED with the report in meta when the gates pass", async () => {
    const report: GateReport = { passed: true, checks: [check({}), check({ name: "lint", command: "npm run lint", durationMs: 300 })] };
    const result = await runTool(
      "task_complete",
      { summary: "Fixed the flaky test" },
      toolContext(tempDir(), { services: { runGates: async () => report } }),
    );
    expect(result.isError).toBe(false);
    expect(result.content).toBe("QUALITY_PASSED: test passed (1.2s), lint passed (0.3s)");
    expect(result.meta).toMatchObject({ completion: { passed: true, report }, summary: "Fixed the flaky test" });
  });

  it("returns QUALITY_BLOCKED with a capped section per failing check", async () => {
    const longOutput = `${"x".repeat(5_000)}\nfinal line of output`;
    const report: GateReport = {
      passed: false,
      checks: [
        check({ passed: false, acceptable: false, exitCode: 1, newFailures: ["not ok - adds"], output: longOutput }),
        check({ name: "lint", command: "npm run lint", passed: false, acceptable: true, exitCode: 1 }),
        check({ name: "build", command: "npm run build" }),
      ],
    };
    const result = await runTool(
      "task_complete",
      { summary: "done" },
      toolContext(tempDir(), { services: { runGates: async () => report } }),
    );
    expect(result.isError).toBe(true);
    expect(result.meta?.completion).toEqual({ passed: false, report });
    const [head, section, ...rest] = result.content.split("\n\n");
    expect(head).toMatch(/^QUALITY_BLOCKED: 1 of 3 checks failed \(test FAILED, lint failed before this session too/);
    expect(rest).toEqual([]);
    expect(section).toMatch(/^## TEST FAILED: `npm test` \(exit code 1\)\nNew failures:\n- not ok - adds\nOutput \(tail\):\n\[\.\.\.\]\n/);
    expect(section).toContain("final line of output");
    expect(section!.length).toBeLessThan(2_200);
  });

  it("reports gates that cannot run as an error, and requires a summary", async () => {
    const broken = await runTool(
      "task_complete",
      { summary: "done" },
      toolContext(tempDir(), { services: { runGates: async () => Promise.reject(new Error("no baseline")) } }),
    );
    expect(broken).toEqual({ isError: true, content: "the quality gates could not be run: no baseline" });
    const empty = await runTool("task_complete", { summary: "  " }, toolContext(tempDir()));
    expect(empty.isError).toBe(true);
    expect(empty.content).toMatch(/^invalid input for task_complete: summary/);
  });
});

describe("recall", () => {
  it("formats hits with seq, iteration and role, centred on the query", async () => {
    const calls: Array<[string, number]> = [];
    const long = `${"padding ".repeat(300)}the migration timeout was 30s ${"tail ".repeat(300)}`;
    const context = toolContext(tempDir(), {
      services: {
        recall: async (query, limit) => {
          calls.push([query, limit]);
          return [
            { seq: 12, iteration: 3, role: "tool", text: "Error: migration timeout after 30s" },
            { seq: 40, iteration: 7, role: "assistant", text: long },
          ];
        },
      },
    });
    const result = await runTool("recall", { query: "migration timeout" }, context);
    expect(calls).toEqual([["migration timeout", 5]]);
    expect(result.isError).toBe(false);
    expect(result.content).toContain('Found 2 earlier messages for "migration timeout":');
    expect(result.content).toContain("[#12 · iteration 3 · tool]\nError: migration timeout after 30s");
    expect(result.content).toContain("[#40 · iteration 7 · assistant]\n…");
    expect(result.content).toContain("the migration timeout was 30s");
    expect(result.content.length).toBeLessThan(2_000);
  });

  it("stays under the size cap and says what it left out", async () => {
    const hits = Array.from({ length: 20 }, (_, i) => ({ seq: i, iteration: 1, role: "tool", text: `word ${"z".repeat(790)}` }));
    const result = await runTool(
      "recall",
      { query: "word", limit: 20 },
      toolContext(tempDir(), { services: { recall: async () => hits } }),
    );
    expect(result.content.length).toBeLessThan(8_400);
    expect(result.content).toMatch(/\[\d+ more hits omitted to stay under the size cap\]$/);
  });

  it("says when nothing was found", async () => {
    const result = await runTool("recall", { query: "nothing here" }, toolContext(tempDir()));
    expect(result).toEqual({ isError: false, content: 'Nothing found for "nothing here" in this session\'s earlier messages.' });
  });
});
