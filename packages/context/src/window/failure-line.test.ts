import { describe, expect, it } from "vitest";
import { failureLine, reportsFailure } from "./failure-line.js";

describe("failure lines", () => {
  it("take the error under a failing test's name", () => {
    const node =
      "> app@1.0.0 test\n> node --test\n\n✖ refresh keeps the session\n  AssertionError: expected 200 to equal 401\n    at test.js:12";
    expect(failureLine(node)).toBe("✖ refresh keeps the session — AssertionError: expected 200 to equal 401");
    const vitest =
      " RUN  v3.2.4 /repo\n ✓ test/b.test.ts (3 tests) 12ms\n\n FAIL  test/auth.test.ts > refreshes once\nAssertionError: expected 2 to be 1 // Object.is equality\n";
    expect(failureLine(vitest)).toBe("FAIL test/auth.test.ts > refreshes once — AssertionError: expected 2 to be 1 // Object.is equality");
  });

  it("do not join an error line that says it all to what follows", () => {
    expect(failureLine("Error: ENOENT: no such file, open 'a.json'\n    at open (fs.js:1)")).toBe(
      "Error: ENOENT: no such file, open 'a.json'",
    );
    expect(failureLine(" FAIL  test/a.test.ts > parses dates\n\n ✓ test/b.test.ts")).toBe("FAIL test/a.test.ts > parses dates");
  });

  it("skip counters that say nothing failed, passing lines and stack frames", () => {
    expect(failureLine("all 12 tests passed")).toBeNull();
    expect(failureLine(" Tests  0 failed | 12 passed\n ✓ a.test.ts")).toBeNull();
    expect(reportsFailure("    at Object.<anonymous> (src/a.ts:3:9) Error:")).toBe(false);
    expect(failureLine("Test Files  2 passed\n      Tests  1 failed | 7 passed")).toBe("Tests 1 failed | 7 passed");
  });

  it("know compilers, linters and panics", () => {
    expect(reportsFailure("src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.")).toBe(true);
    expect(reportsFailure("  3:7  error  'x' is defined but never used  no-unused-vars")).toBe(true);
    expect(reportsFailure("thread 'main' panicked at src/main.rs:2:5")).toBe(true);
    expect(reportsFailure("Compiled successfully in 1.2s")).toBe(false);
  });
});
