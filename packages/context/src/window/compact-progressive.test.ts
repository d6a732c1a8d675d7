import { describe, expect, it } from "vitest";
import { MARKERS } from "../markers.js";
import { toolResultText, toolResults, type Message } from "../messages.js";
import { compactProgressive } from "./compact-progressive.js";
import { messagesOf } from "./entry.js";
import { estimateTokens } from "./estimate-tokens.js";
import { filterToolResponses } from "./filter-tool-responses.js";
import { syntheticTranscript } from "./test-support/transcripts.js";
import { validatePairing } from "./validate-pairing.js";

const history = syntheticTranscript({ seed: 7, turns: 30, resultChars: 4_000 });
const entries = history.map((message) => ({ message }));
const at = (pct: number): number => estimateTokens(filterToolResponses(history, pct));

describe("compactProgressive", () => {
  it("returns level 0 untouched when the context is already under target", () => {
    const out = compactProgressive(entries, { compactAt: Math.ceil((estimateTokens(history) + 1) / 0.8) + 1 });
    expect(out.level).toBe(0);
    expect(out.removed).toEqual([]);
    expect(out.underTarget).toBe(true);
    expect(out.kept.map((k) => k.entry)).toEqual(entries);
    expect(messagesOf(out.kept)).toEqual(history);
  });

  it("goes up the ladder to the first level under compactAt × targetPct / 100, then removes no more than needed", () => {
    // target between the 10% and the 20% results: 20 is the first level under it, and the least
    // percentage between 10 and 20 that gets there is the answer (the newest results survive)
    const target = Math.floor((at(10) + at(20)) / 2);
    const out = compactProgressive(entries, { compactAt: target * 2, targetPct: 50 });
    expect(out.targetTokens).toBe(target);
    expect(out.level).toBeGreaterThan(10);
    expect(out.level).toBeLessThanOrEqual(20);
    expect(out.tokensAfter).toBe(at(out.level));
    expect(out.tokensAfter).toBeLessThan(target);
    expect(at(out.level - 1)).toBeGreaterThanOrEqual(target);
    expect(out.tokensBefore).toBe(estimateTokens(history));
    expect(out.underTarget).toBe(true);
    expect(messagesOf(out.kept)).toEqual(filterToolResponses(history, out.level));
  });

  it("treats 'under' strictly: a level exactly at target is not enough", () => {
    const out = compactProgressive(entries, { compactAt: at(50), targetPct: 100 });
    expect(out.level).toBeGreaterThan(50);
    expect(at(out.level - 1)).toBeGreaterThanOrEqual(at(50));
  });

  it("returns the 100% result with underTarget false when no level is under target", () => {
    const out = compactProgressive(entries, { compactAt: 1_000 });
    expect(out.level).toBe(100);
    expect(out.underTarget).toBe(false);
    expect(out.tokensAfter).toBe(at(100));
    expect(
      messagesOf(out.kept)
        .flatMap(toolResults)
        .every((r) => toolResultText(r).startsWith(MARKERS.removedResult)),
    ).toBe(true);
    expect(validatePairing(messagesOf(out.kept))).toEqual([]);
  });

  it("uses the given levels, estimator, the entries' seqs and frozen set", () => {
    const calls: number[] = [];
    const estimate = (m: readonly Message[]): number => {
      calls.push(m.length);
      return estimateTokens(m) + 10_000; // e.g. the system prompt and tools
    };
    const stored = history.map((message, i) => ({ message, seq: 1_000 + i }));
    const out = compactProgressive(stored, { compactAt: 1_000, levels: [0, 30], estimate, frozen: ["toolu_0001"] });
    expect(out.level).toBe(30);
    expect(calls).toHaveLength(3); // before, level 0, level 30
    expect(out.frozen).toContain("toolu_0001");
    expect(out.removed).not.toContain("toolu_0001");
    expect(out.kept.map((k) => k.entry)).toEqual(stored);
    expect(JSON.stringify(messagesOf(out.kept))).toContain("seq 100");
  });

  it("is deterministic and leaves its input alone", () => {
    const copy = structuredClone(history);
    const a = compactProgressive(entries, { compactAt: at(50) + 100, targetPct: 100 });
    const b = compactProgressive(structuredClone(entries), { compactAt: at(50) + 100, targetPct: 100 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(history).toEqual(copy);
  });

  it("rejects a bad threshold or an empty ladder", () => {
    expect(() => compactProgressive(entries, { compactAt: 0 })).toThrow(RangeError);
    expect(() => compactProgressive(entries, { compactAt: 10, levels: [] })).toThrow(RangeError);
  });
});
