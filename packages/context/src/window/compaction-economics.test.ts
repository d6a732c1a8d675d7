import { describe, expect, it } from "vitest";
import { messageSegments, simulatePromptCache } from "./cache-cost.js";
import { cheapestTrigger, cycleCostPerCall } from "./compaction-economics.js";
import type { Message } from "../messages.js";

describe("compaction economics", () => {
  it("puts the cheapest trigger at R + sqrt(23·R·g) with Anthropic's rates and no summary call", () => {
    expect(cheapestTrigger({ growthPerCall: 2_000, residualTokens: 20_000 })).toBeCloseTo(20_000 + Math.sqrt(23 * 20_000 * 2_000), 6);
    // A summary call makes compacting dearer, so it pays to wait longer.
    expect(cheapestTrigger({ growthPerCall: 2_000, residualTokens: 20_000, compactionCost: 5_000 })).toBeGreaterThan(
      cheapestTrigger({ growthPerCall: 2_000, residualTokens: 20_000 }),
    );
    expect(cheapestTrigger({ growthPerCall: 0, residualTokens: 20_000 })).toBe(20_000);
  });

  it("is the minimum of the cycle cost", () => {
    const inputs = { growthPerCall: 3_000, residualTokens: 25_000, compactionCost: 2_000 };
    const best = cheapestTrigger(inputs);
    for (const t of [best * 0.7, best * 0.9, best * 1.1, best * 1.5, 180_000])
      expect(cycleCostPerCall(inputs, t)).toBeGreaterThan(cycleCostPerCall(inputs, best));
  });

  it("agrees with the prompt-cache simulation on a known sequence", () => {
    // 600 calls of 2k appended tokens; compact to 20k whenever the next request would reach T.
    const price = (trigger: number): number => {
      const messages: Message[] = [];
      const requests: Message[][] = [];
      const block = (i: number): Message => ({ role: i % 2 ? "assistant" : "user", content: `${i} ${"x".repeat(7_990)}` }); // ~2k tokens
      const residual = (): Message[] =>
        Array.from({ length: 10 }, (_, k) => ({
          role: k % 2 ? "assistant" : "user",
          content: `kept ${messages.length} ${k} ${"y".repeat(7_980)}`,
        }));
      let live: Message[] = [];
      for (let i = 0; i < 600; i++) {
        messages.push(block(i));
        live.push(block(i));
        if (live.length * 2_000 >= trigger) live = residual();
        requests.push([...live]);
      }
      const sim = simulatePromptCache(
        requests.map((r) => messageSegments(r)),
        { inputPricePerMTok: 1 },
      );
      return sim.costUsd / requests.length;
    };
    const model = (trigger: number) => cycleCostPerCall({ growthPerCall: 2_000, residualTokens: 20_000 }, trigger) / 1_000_000;
    // Within 10%: the simulation compacts in whole messages and counts per-message framing.
    for (const trigger of [40_000, 60_000, 100_000, 180_000]) {
      const ratio = price(trigger) / model(trigger);
      expect(ratio, `trigger ${trigger}`).toBeGreaterThan(0.9);
      expect(ratio, `trigger ${trigger}`).toBeLessThan(1.1);
    }
    const best = cheapestTrigger({ growthPerCall: 2_000, residualTokens: 20_000 });
    expect(price(best)).toBeLessThan(price(180_000) * 0.7);
  });
});
