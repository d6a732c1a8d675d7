import { describe, expect, it } from "vitest";
import { extractFailureLines, normaliseFailureLine } from "./failure-lines.js";

describe("extractFailureLines", () => {
  it("picks failure lines from common runners and skips passes and stack frames", () => {
    const output = [
      "✓ handles failed login (3ms)",
      "ok 1 - parses failure codes",
      "FAIL src/a.test.ts > adds (12ms)",
      "  AssertionError: expected 2 to be 3",
      "    at Object.<anonymous> (/home/u/proj/src/a.test.ts:12:5)",
      "not ok 7 - subtracts numbers",
      "--- FAIL: TestParse (0.00s)",
      "error[E0308]: mismatched types",
      "src/a.ts(3,7): error TS2322: Type 'string' is not assignable",
      "  3:7  error  'x' is defined but never used  no-unused-vars",
      "thread 'main' panicked at src/main.rs:2:5:",
      "FAILED tests/test_x.py::test_a - assert 1 == 2",
      "Tests: 0 failed",
      "all good here",
    ].join("\n");
    expect(extractFailureLines(output)).toEqual([
      "FAIL src/a.test.ts > adds",
      "AssertionError: expected 2 to be 3",
      "not ok - subtracts numbers",
      "--- FAIL: TestParse",
      "error[E0308]: mismatched types",
      "src/a.ts: error TS2322: Type 'string' is not assignable",
      "error 'x' is defined but never used no-unused-vars",
      "thread 'main' panicked at src/main.rs:",
      "FAILED tests/test_x.py::test_a - assert 1 == 2",
    ]);
  });

  it("compares the same failure equal across runs despite durations, paths, counters and line numbers", () => {
    const first =
      "not ok 2 - parses dates\n  duration_ms: 1.23\nError: boom at /tmp/run-abc/src/x.ts:10:4\n# fail 1\nTests  1 failed | 4 passed (5)\nat 12:00:01";
    const second =
      "not ok 3 - parses dates\n  duration_ms: 9.87\nError: boom at /var/tmp/run-xyz/src/x.ts:14:2\n# fail 2\nTests  2 failed | 9 passed (11)\nat 13:45:10";
    expect(extractFailureLines(second)).toEqual(extractFailureLines(first));
  });

  it("keeps what distinguishes one failure from another", () => {
    expect(extractFailureLines("not ok 1 - adds")).not.toEqual(extractFailureLines("not ok 1 - subtracts"));
    expect(extractFailureLines("AssertionError: expected 2 to be 3")).not.toEqual(
      extractFailureLines("AssertionError: expected 2 to be 4"),
    );
  });

  it("falls back to the last lines when nothing looks like a failure", () => {
    expect(extractFailureLines("building\nstep 1\n\nsomething odd happened\nexit status 2\n")).toEqual([
      "step 1",
      "something odd happened",
      "exit status 2",
    ]);
  });
});

describe("normaliseFailureLine", () => {
  it("removes colour, timestamps and durations", () => {
    expect(normaliseFailureLine("\u001b[31m2024-05-01T10:00:00.123Z FAIL  thing (1.5s)\u001b[39m")).toBe("<time> FAIL thing");
  });
});
