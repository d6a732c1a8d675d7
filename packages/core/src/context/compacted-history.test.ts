import { describe, expect, it } from "vitest";
import { appendCompactedHistory, compactedHistoryOf, replaceScratchpad } from "./compacted-history.js";

const entry = (n: number, body = "summary") => `## Compacted History (${n} messages, mechanical summary)\n\n${body} ${n}`;

describe("the scratchpad's Compacted History", () => {
  it("appends entries after the agent's sections and bounds them, oldest first out", () => {
    let pad = "## Current Plan\n1. [ ] fix";
    for (let i = 1; i <= 5; i++) pad = appendCompactedHistory(pad, entry(i, "x".repeat(3_000)), 8_000);
    expect(pad.startsWith("## Current Plan\n1. [ ] fix")).toBe(true);
    expect(compactedHistoryOf(pad)).not.toContain("(1 messages");
    expect(compactedHistoryOf(pad)).toContain("(5 messages");
    expect(compactedHistoryOf(pad).length).toBeLessThanOrEqual(8_000);
  });

  it("survives the agent replacing its scratchpad, without duplicates", () => {
    const pad = appendCompactedHistory("## Current Plan\n1. [ ] fix", entry(1));
    const replaced = replaceScratchpad(pad, "## Current Plan\n1. [x] fix\n2. [ ] test");
    expect(replaced).toBe(`## Current Plan\n1. [x] fix\n2. [ ] test\n\n${entry(1)}`);
    expect(replaceScratchpad(pad, `## Current Plan\n1. [x] fix\n\n${entry(1)}`)).toBe(`## Current Plan\n1. [x] fix\n\n${entry(1)}`);
    expect(replaceScratchpad("## Plan", "## New plan")).toBe("## New plan");
  });
});
