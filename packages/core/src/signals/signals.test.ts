import { describe, expect, it } from "vitest";
import { parseSignals } from "./parse.js";
import { StreamingSignalDetector } from "./streaming.js";

const topics = new Set(["plan.complete", "task.blocked", "implementation.done"]);

describe("parseSignals", () => {
  it("reads every kind of signal at line start, with list bullets and backticks", () => {
    const text = [
      "Done with the parser.",
      "CHECKLIST_ADD:1:parser handles quotes",
      "- CHECKLIST_DONE:1",
      "`CHECKLIST_FAILED:2:lint rule conflicts with prettier`",
      "MEMORY:pitfall:tests need TZ=UTC",
      "ACKNOWLEDGE_FAILURES",
      "EVENT:implementation.done all items done",
    ].join("\n");
    expect(parseSignals(text, topics)).toEqual([
      { kind: "checklist_add", id: "1", description: "parser handles quotes" },
      { kind: "checklist_done", id: "1" },
      { kind: "checklist_failed", id: "2", reason: "lint rule conflicts with prettier" },
      { kind: "memory", memoryType: "pitfall", text: "tests need TZ=UTC" },
      { kind: "acknowledge" },
      { kind: "event", topic: "implementation.done", payload: { message: "all items done" } },
    ]);
  });

  it("ignores signal names in the middle of prose and reports placeholders as malformed", () => {
    expect(parseSignals("Use CHECKLIST_DONE:<id> when done. EVENT:plan.complete later.", topics)).toEqual([]);
    expect(parseSignals("CHECKLIST_DONE:<id>", topics)).toEqual([
      { kind: "malformed", signal: "CHECKLIST_DONE", line: "CHECKLIST_DONE:<id>", reason: "expected CHECKLIST_DONE:<id>" },
    ]);
  });

  it("takes the scratchpad up to the next signal line, and only the first one", () => {
    const text = "SCRATCHPAD:## Current Plan\n1. [x] explore\n2. [ ] fix\n\nCHECKLIST_DONE:3\nSCRATCHPAD:second";
    const signals = parseSignals(text, topics);
    expect(signals[0]).toEqual({ kind: "scratchpad", content: "## Current Plan\n1. [x] explore\n2. [ ] fix" });
    expect(signals[1]).toEqual({ kind: "checklist_done", id: "3" });
    expect(signals[2]).toMatchObject({ kind: "malformed", signal: "SCRATCHPAD" });
  });

  it("parses events: json payloads over lines, unknown topics, trailing punctuation, bad json, one per response", () => {
    expect(parseSignals('EVENT:task.blocked:{"reason": "needs a \\"}\\" key",\n "n": 2}\ntrailing', topics)).toEqual([
      { kind: "event", topic: "task.blocked", payload: { reason: 'needs a "}" key', n: 2 } },
    ]);
    expect(parseSignals("EVENT:plan.completed", topics)[0]).toMatchObject({ kind: "malformed", reason: "unknown topic plan.completed" });
    expect(parseSignals("EVENT:plan.complete.", topics)[0]).toMatchObject({ kind: "malformed", reason: 'invalid topic "plan.complete."' });
    expect(parseSignals("EVENT:Plan.complete", topics)[0]).toMatchObject({ kind: "malformed" });
    expect(parseSignals("EVENT:", topics)[0]).toMatchObject({ kind: "malformed" });
    expect(parseSignals("EVENT:task.blocked:{bad json}", topics)[0]).toMatchObject({
      kind: "malformed",
      reason: expect.stringMatching(/^invalid JSON payload/),
    });
    expect(parseSignals('EVENT:task.blocked:{"open": 1', topics)[0]).toMatchObject({
      kind: "malformed",
      reason: "unterminated JSON payload",
    });
    const two = parseSignals("EVENT:plan.complete\nEVENT:task.blocked", topics);
    expect(two[0]).toEqual({ kind: "event", topic: "plan.complete", payload: undefined });
    expect(two[1]).toMatchObject({ kind: "malformed", reason: "only the first EVENT of a response counts" });
  });

  it("validates memory types", () => {
    expect(parseSignals("MEMORY:gossip:x", topics)[0]).toMatchObject({ kind: "malformed", signal: "MEMORY" });
    expect(parseSignals("MEMORY:Decision:use zod", topics)[0]).toEqual({ kind: "memory", memoryType: "decision", text: "use zod" });
  });
});

describe("StreamingSignalDetector", () => {
  it("waits for the newline, reports every line in order, and lets the full parse skip what it handled", () => {
    const detector = new StreamingSignalDetector();
    expect(detector.push("CHECKLIST_DO")).toEqual([]);
    expect(detector.push("NE:1")).toEqual([]);
    expect(detector.push("\nmore CHECKLIST_DONE:9 text\nCHECKLIST_FAILED:2:flaky")).toEqual([{ kind: "checklist_done", id: "1" }]);
    expect(detector.push("\nCHECKLIST_DONE:1\n")).toEqual([
      { kind: "checklist_failed", id: "2", reason: "flaky" },
      { kind: "checklist_done", id: "1" },
    ]);
    const full = parseSignals(
      "CHECKLIST_DONE:1\nmore CHECKLIST_DONE:9 text\nCHECKLIST_FAILED:2:flaky\nCHECKLIST_DONE:1\nCHECKLIST_DONE:3\nEVENT:plan.complete",
      topics,
    );
    expect(detector.unhandled(full)).toEqual([
      { kind: "checklist_done", id: "3" },
      { kind: "event", topic: "plan.complete", payload: undefined },
    ]);
  });

  it("keeps a signal of the full text that the stream did not see as a line", () => {
    const detector = new StreamingSignalDetector();
    detector.push("text blockCHECKLIST_DONE:1\nCHECKLIST_DONE:2\n");
    const full = parseSignals("text block\nCHECKLIST_DONE:1\nCHECKLIST_DONE:2\n", topics);
    expect(detector.unhandled(full)).toEqual([{ kind: "checklist_done", id: "1" }]);
  });

  it("reads a 10 MB line streamed in small deltas without rescanning it per delta", () => {
    // Searching the whole pending line for a newline on every delta took 46 s for 1 MB: for 10 MB that
    // is over an hour, past the runner's ceiling, so this fails on a rescan without timing anything.
    const detector = new StreamingSignalDetector();
    const delta = "x".repeat(10);
    let early = 0;
    for (let i = 0; i < 1_000_000; i++) early += detector.push(delta).length;
    expect(early).toBe(0);
    expect(detector.push("\nCHECKLIST_DONE:1\n")).toEqual([{ kind: "checklist_done", id: "1" }]);
  });
});
