import { replayOptions } from "./run-context.js";
import { describe, expect, it } from "vitest";
import { raw } from "./strategies/raw.js";
import type { Strategy, SummaryCall } from "./strategies/types.js";
import { generateSession } from "./generator/index.js";
import type { BenchInput } from "./input.js";
import { replay } from "./replay.js";
import { priceSummaryCalls } from "./summary-calls.js";

// Strategies that summarise pay for it: each summary call's input at its model's price (the shared
// prefix read from cache), plus its output, on top of the conversation's own requests.

describe("priceSummaryCalls", () => {
  it("prices a summary-model call and a main-model call on known figures", () => {
    // At $3/MTok main input: the summary model (Haiku) is $1 in / $5 out, the main one $3 / $15.
    const haiku: SummaryCall = { model: "summary", inputTokens: 10_000, cachedTokens: 4_000, outputTokens: 1_000 };
    // 6,000 fresh x $1 + 4,000 cached x $0.10 + 1,000 out x $5, per million.
    expect(priceSummaryCalls([haiku], 3)).toBeCloseTo(0.006 + 0.0004 + 0.005, 12);
    const main: SummaryCall = { model: "main", inputTokens: 10_000, cachedTokens: 9_000, outputTokens: 500 };
    // 1,000 fresh x $3 + 9,000 cached x $0.30 + 500 out x $15.
    expect(priceSummaryCalls([main], 3)).toBeCloseTo(0.003 + 0.0027 + 0.0075, 12);
    expect(priceSummaryCalls([haiku, main], 3)).toBeCloseTo(0.0114 + 0.0132, 12);
    expect(priceSummaryCalls([], 3)).toBe(0);
  });

  it("are added to what a strategy's replay costs", async () => {
    const session = generateSession({ seed: 5, iterations: 20 });
    const input: BenchInput = { name: "s", kind: "synthetic", messages: session.messages, facts: session.facts, window: 200_000 };
    const call: SummaryCall = { model: "summary", inputTokens: 50_000, cachedTokens: 0, outputTokens: 2_000 };
    const summarising: Strategy = {
      ...raw,
      name: "raw-with-a-summary",
      start: (c) => ({ ...raw.start(c), summaryCalls: () => [call] }),
    };
    const plain = await replay(input, raw, replayOptions(input));
    const paying = await replay(input, summarising, replayOptions(input));
    expect(paying.summaryCalls).toBe(1);
    expect(paying.summaryCostUsd).toBeCloseTo(priceSummaryCalls([call], 3), 12);
    expect(paying.costUsd - plain.costUsd).toBeCloseTo(paying.summaryCostUsd, 12);
  });
});
