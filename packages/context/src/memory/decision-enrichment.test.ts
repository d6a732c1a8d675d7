import { describe, expect, it } from "vitest";
import { MARKERS } from "../markers.js";
import type { Message } from "../messages.js";
import { buildDecisionEnrichmentPrompt, parseDecisionEnrichment } from "./decision-enrichment.js";
import { mergeDecisions } from "./items.js";

describe("buildDecisionEnrichmentPrompt", () => {
  it("defines a decision with good and bad examples and lists the existing ones", () => {
    const prompt = buildDecisionEnrichmentPrompt(["Use vitest"], [{ role: "user", content: "Fix it" }]);
    expect(prompt).toContain("An entry is a DECISION if it records");
    expect(prompt).toContain('BAD (not decisions): "You\'re right, I overcomplicated it"');
    expect(prompt).toContain("- Use vitest");
    expect(prompt).toContain("[user]: Fix it");
  });

  it("uses the last 20 messages, or 15 when the prompt would be long, and skips injected text", () => {
    const short: Message[] = Array.from({ length: 30 }, (_, i) => ({ role: "assistant", content: `m${i}` }));
    expect(buildDecisionEnrichmentPrompt([], short)).toContain("[assistant]: m10");
    expect(buildDecisionEnrichmentPrompt([], short)).not.toContain("[assistant]: m9\n");
    const long: Message[] = Array.from({ length: 30 }, (_, i) => ({ role: "assistant", content: `m${i} ${"x".repeat(500)}` }));
    const prompt = buildDecisionEnrichmentPrompt([], long);
    expect(prompt).toContain("[assistant]: m15 ");
    expect(prompt).not.toContain("[assistant]: m14 ");
    expect(buildDecisionEnrichmentPrompt([], [{ role: "user", content: `${MARKERS.gauge}80%]` }])).not.toContain(MARKERS.gauge);
  });
});

describe("parseDecisionEnrichment", () => {
  it("returns refined decisions without noise", () => {
    const reply = '```json\n["Use atomicWriteFile for checkpoint re-write", "You\'re right, I overcomplicated it", "Should we?"]\n```';
    expect(parseDecisionEnrichment(reply)).toEqual({ ok: true, decisions: ["Use atomicWriteFile for checkpoint re-write"] });
  });

  it("reports malformed answers", () => {
    expect(parseDecisionEnrichment("no list").ok).toBe(false);
    expect(parseDecisionEnrichment("[1, 2]").ok).toBe(false);
    expect(parseDecisionEnrichment("[oops").ok).toBe(false);
  });

  it("merges with heuristic decisions, preserving those the model did not cover", () => {
    const heuristic = [
      { id: "d1", what: "Read lastToolCall from state files", when: null },
      { id: "d2", what: "Use atomicWriteFile for checkpoint re-write", when: null },
    ];
    const refined = parseDecisionEnrichment('["Use atomicWriteFile for the checkpoint re-write to bypass dedup"]');
    if (!refined.ok) throw new Error(refined.error);
    const merged = mergeDecisions(
      heuristic,
      refined.decisions.map((what) => ({ what, when: null })),
    );
    expect(merged.map((d) => d.what)).toEqual([
      "Read lastToolCall from state files",
      "Use atomicWriteFile for the checkpoint re-write to bypass dedup",
    ]);
  });
});
