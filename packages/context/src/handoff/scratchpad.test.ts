import { describe, expect, it } from "vitest";
import { parseScratchpad } from "./scratchpad.js";
import { SCRATCHPAD } from "./test-support/fixtures.js";

describe("parseScratchpad", () => {
  it("reads the scratchpad's sections", () => {
    const pad = parseScratchpad(SCRATCHPAD);
    expect(pad.understanding).toEqual([
      "TypeScript pnpm monorepo; the parser lives in packages/parser/src",
      "Tests use vitest, next to the source",
    ]);
    expect(pad.plan).toEqual([
      { text: "Explore the parser and its tests", done: true },
      { text: "Reproduce the flaky test", done: true },
      { text: "Fix the tokenizer's newline handling", done: false },
      { text: "Add regression tests", done: false },
      { text: "Run quality gates", done: false },
    ]);
    expect(pad.decisions).toEqual(["Keep the public tokenizer API unchanged", "Use a seeded random generator in the property tests"]);
    expect(pad.blockers).toEqual([]);
    expect(pad.lastAction).toBe("Reproduced the failure with seed 42. Next: patch the tokenizer to keep trailing newlines.");
  });

  it("keeps deeper headings inside Compacted History instead of starting new sections", () => {
    const pad = parseScratchpad(SCRATCHPAD);
    expect(pad.compactedHistory).toBe("### Summary\n1. **User Intent** - fix the flaky parser test");
    expect(pad.other).toEqual([]);
  });

  it("accepts the SCRATCHPAD: signal prefix, other heading levels, case and list styles", () => {
    const pad = parseScratchpad(
      "SCRATCHPAD:## current plan\n- [X] one\n* [ ] two\n- three\n### BLOCKERS:\nWaiting for the API key\n## Notes\nfree text",
    );
    expect(pad.plan).toEqual([
      { text: "one", done: true },
      { text: "two", done: false },
      { text: "three", done: false },
    ]);
    expect(pad.blockers).toEqual(["Waiting for the API key"]);
    expect(pad.other).toEqual([{ heading: "Notes", body: "free text" }]);
  });

  it("returns empty sections for an empty scratchpad", () => {
    expect(parseScratchpad("")).toEqual({
      understanding: [],
      plan: [],
      decisions: [],
      blockers: [],
      lastAction: "",
      compactedHistory: "",
      other: [],
    });
  });
});
