import { describe, expect, it } from "vitest";
import { messageSegments, simulatePromptCache, type PromptSegment } from "./cache-cost.js";
import { compactProgressive } from "./compact-progressive.js";
import { estimateTokens } from "./estimate-tokens.js";
import { filterToolResponses } from "./filter-tool-responses.js";
import { syntheticTranscript } from "./test-support/transcripts.js";

const seg = (fingerprint: string, tokens: number): PromptSegment => ({ fingerprint, tokens });

describe("simulatePromptCache", () => {
  it("prices a known sequence exactly", () => {
    const sim = simulatePromptCache(
      [
        [seg("sys", 1_000), seg("a", 500)], // cold: writes 1,500
        [seg("sys", 1_000), seg("a", 500), seg("b", 200)], // reads 1,500, writes 200
        [seg("sys", 1_000), seg("a*", 400), seg("b", 200)], // "a" changed: reads 1,000, writes 600
      ],
      { inputPricePerMTok: 3 },
    );
    expect(sim.requests.map((r) => [r.readTokens, r.writeTokens])).toEqual([
      [0, 1_500],
      [1_500, 200],
      [1_000, 600],
    ]);
    // $3/MTok: write 3.75, read 0.30 per MTok
    expect(sim.requests[0]!.costUsd).toBeCloseTo(0.005625, 12);
    expect(sim.requests[1]!.costUsd).toBeCloseTo(0.00045 + 0.00075, 12);
    expect(sim.requests[2]!.costUsd).toBeCloseTo(0.0003 + 0.00225, 12);
    expect(sim.totalTokens).toBe(4_800);
    expect(sim.readTokens).toBe(2_500);
    expect(sim.writeTokens).toBe(2_300);
    expect(sim.costUsd).toBeCloseTo(0.005625 + 0.0012 + 0.00255, 12);
    expect(sim.uncachedCostUsd).toBeCloseTo(4_800 * 3e-6, 12);
    expect(sim.readShare).toBeCloseTo(2_500 / 4_800, 12);
  });

  it("takes other prices and multipliers", () => {
    const sim = simulatePromptCache([[seg("a", 1_000_000)], [seg("a", 1_000_000)]], {
      inputPricePerMTok: 15,
      writeMultiplier: 2,
      readMultiplier: 0.1,
    });
    expect(sim.requests.map((r) => r.costUsd)).toEqual([30, 1.5]);
  });
});

describe("batched, monotone removal keeps the cache", () => {
  // 40 iterations; the loop appends one step each time. Rolling removal re-stubs a little every
  // iteration; batched removal compacts once with a frozen set and then leaves the prefix alone.
  const full = syntheticTranscript({ seed: 8, turns: 40, maxStepsPerTurn: 1, maxParallel: 1 });
  const steps = Array.from({ length: 40 }, (_, k) => full.slice(0, 4 * (k + 1)));
  const sys = seg("system+tools", 8_000);

  it("costs less than removing a little every iteration", () => {
    const rolling = steps.map((m) => messageSegments(filterToolResponses(m, 50), {}, sys));
    let frozen: string[] = [];
    const batched = steps.map((m, k) => {
      if (k === 20)
        frozen = compactProgressive(
          m.map((message) => ({ message })),
          { compactAt: 1, levels: [50] },
        ).frozen; // one batch at a crossing
      return messageSegments(filterToolResponses(m, 0, { frozen }), {}, sys);
    });
    const r = simulatePromptCache(rolling);
    const b = simulatePromptCache(batched);
    expect(b.readShare).toBeGreaterThan(0.85);
    expect(b.costUsd).toBeLessThan(r.costUsd);
  });

  it("segments messages by content, so an unchanged prefix is recognised", () => {
    const a = messageSegments(full.slice(0, 5));
    const b = messageSegments(full.slice(0, 6));
    expect(b.slice(0, 5)).toEqual(a);
    expect(a.reduce((n, s) => n + s.tokens, 0)).toBeGreaterThanOrEqual(estimateTokens(full.slice(0, 5)));
  });
});

describe("simulatePromptCache with time", () => {
  const a = [seg("sys", 1_000), seg("a", 1_000)];
  const ab = [...a, seg("b", 1_000)];
  const min = 60_000;

  it("reads within the TTL, and nothing after it", () => {
    const warm = simulatePromptCache([a, ab], {}, [
      { at: 0, ttl: "5m" },
      { at: 4 * min, ttl: "5m" },
    ]);
    const cold = simulatePromptCache([a, ab], {}, [
      { at: 0, ttl: "5m" },
      { at: 6 * min, ttl: "5m" },
    ]);
    expect(warm.requests[1]).toMatchObject({ readTokens: 2_000, writeTokens: 1_000 });
    expect(cold.requests[1]).toMatchObject({ readTokens: 0, writeTokens: 3_000 });
  });

  it("keeps an hour with the 1-hour TTL, whose writes cost 2x", () => {
    const sim = simulatePromptCache([a, ab], { inputPricePerMTok: 1 }, [
      { at: 0, ttl: "1h" },
      { at: 40 * min, ttl: "1h" },
    ]);
    expect(sim.requests[1]).toMatchObject({ readTokens: 2_000, writeTokens: 1_000 });
    expect(sim.requests[0]!.costUsd).toBeCloseTo((2_000 * 2) / 1e6, 12);
    expect(sim.requests[1]!.costUsd).toBeCloseTo((2_000 * 0.1 + 1_000 * 2) / 1e6, 12);
  });

  it("rewrites everything when the TTL changes", () => {
    const sim = simulatePromptCache([a, ab], {}, [
      { at: 0, ttl: "5m" },
      { at: 1_000, ttl: "1h" },
    ]);
    expect(sim.requests[1]).toMatchObject({ readTokens: 0, writeTokens: 3_000 });
  });
});
