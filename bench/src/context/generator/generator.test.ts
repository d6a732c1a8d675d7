import { artifactTrail, validatePairing } from "@hatloop/context";
import { describe, expect, it } from "vitest";
import { searchableText } from "../../util/message-text.js";
import { sessionStats } from "../suite.js";
import { generateSession } from "./index.js";

describe("the synthetic generator", () => {
  it("is deterministic: the same seed gives byte-identical sessions, another seed a different one", () => {
    const a = JSON.stringify(generateSession({ seed: 5, iterations: 120 }));
    expect(JSON.stringify(generateSession({ seed: 5, iterations: 120 }))).toBe(a);
    expect(JSON.stringify(generateSession({ seed: 7, iterations: 120 }))).not.toBe(a);
  });

  it("writes a valid Ralph-loop session: task, then one assistant and one user message per iteration", () => {
    const s = generateSession({ seed: 3, iterations: 200 });
    expect(s.messages).toHaveLength(1 + 2 * 200);
    expect(validatePairing(s.messages)).toEqual([]);
    const parallel = s.messages.filter(
      (m) => m.role === "assistant" && typeof m.content !== "string" && m.content.filter((b) => b.type === "tool_use").length > 1,
    );
    expect(parallel.length).toBeGreaterThan(10);
    expect(artifactTrail(s.messages).length).toBeGreaterThan(5);
  });

  it("puts about 80% of the tokens in tool results", () => {
    for (const seed of [1, 2]) {
      const share = sessionStats(generateSession({ seed, iterations: 400 }).messages).toolResultShare;
      expect(share).toBeGreaterThan(0.7);
      expect(share).toBeLessThan(0.88);
    }
  });

  it("plants each fact where the ground truth says, and nowhere before it", () => {
    for (const seed of [1, 2]) {
      const s = generateSession({ seed, iterations: 60 });
      expect(new Set(s.facts.map((f) => f.priority))).toEqual(new Set(["P0", "P1", "P2"]));
      for (const fact of s.facts) {
        const at = searchableText([s.messages[fact.messageIndex]!]).toLowerCase();
        const before = searchableText(s.messages.slice(0, fact.messageIndex)).toLowerCase();
        for (const needle of fact.needles) expect(at, `${fact.id} at its message`).toContain(needle.toLowerCase());
        // Every fact is new where it is planted, except that the last failing test was named when it was run.
        expect(
          fact.needles.every((n) => before.includes(n.toLowerCase())),
          `${fact.id} before its message`,
        ).toBe(false);
        for (const stale of fact.staleNeedles ?? []) expect(before).toContain(stale.toLowerCase());
      }
    }
  });
});
