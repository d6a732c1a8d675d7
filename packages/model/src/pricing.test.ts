import { describe, expect, it } from "vitest";
import { contextWindowOf, costOf, priceOf } from "./pricing.js";

const million = { inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadTokens: 0, cacheWriteTokens: 0 };
const none = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

describe("pricing", () => {
  it("matches the Go loop's reference: 1M in + 1M out is $18 on Sonnet and $30 on Opus 4.5", () => {
    expect(costOf("claude-sonnet-4-5", million)).toBeCloseTo(18, 10);
    expect(costOf("claude-opus-4-5", million)).toBeCloseTo(30, 10);
  });

  it.each([
    ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5", 3, 15],
    ["claude-sonnet-4-20250514", "claude-sonnet-4", 3, 15],
    ["sonnet-4", "claude-sonnet-4", 3, 15],
    ["claude-opus-4-5-20251101", "claude-opus-4-5", 5, 25],
    ["claude-opus-4-1-20250805", "claude-opus-4-1", 15, 75],
    ["claude-opus-4-0", "claude-opus-4", 15, 75],
    ["claude-opus-4-20250514", "claude-opus-4", 15, 75],
    ["claude-haiku-4-5", "claude-haiku-4-5", 1, 5],
    ["claude-3-5-haiku-latest", "claude-3-5-haiku", 0.8, 4],
    ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5", 3, 15],
    ["global.anthropic.claude-haiku-4-5-20251001-v1:0", "claude-haiku-4-5", 1, 5],
    ["claude-opus-4-5@20251101", "claude-opus-4-5", 5, 25],
  ])("prices %s as %s", (model, family, input, output) => {
    expect(priceOf(model)).toMatchObject({ family, inputPerMTok: input, outputPerMTok: output, known: true });
  });

  it("adds 10% on a cloud's regional endpoint for the 4.5 generation on, and not for older models", () => {
    const regional = priceOf("claude-sonnet-4-5", { regional: true });
    expect(regional.inputPerMTok).toBeCloseTo(3.3, 10);
    expect(regional.outputPerMTok).toBeCloseTo(16.5, 10);
    expect(regional.cacheReadPerMTok).toBeCloseTo(0.33, 10);
    expect(costOf("claude-haiku-4-5", million, { regional: true })).toBeCloseTo(6.6, 10);
    expect(priceOf("claude-sonnet-4", { regional: true })).toMatchObject({ inputPerMTok: 3, outputPerMTok: 15 });
  });

  it("prices cache writes at 1.25x and cache reads at 0.1x the input price", () => {
    expect(costOf("claude-opus-4-5", { ...none, cacheWriteTokens: 1_000_000 })).toBeCloseTo(6.25, 10);
    expect(costOf("claude-opus-4-5", { ...none, cacheReadTokens: 1_000_000 })).toBeCloseTo(0.5, 10);
    expect(costOf("claude-haiku-4-5", { ...none, cacheWriteTokens: 2_000_000, cacheReadTokens: 10_000_000 })).toBeCloseTo(3.5, 10);
  });

  it("prices the current line-up as published, including Opus 5.5's cache-read price", () => {
    expect(costOf("claude-sonnet-5-5", million)).toBeCloseTo(12, 10);
    expect(costOf("sonnet", million)).toBeCloseTo(12, 10);
    expect(priceOf("claude-sonnet-5")).toMatchObject({
      family: "claude-sonnet-5",
      inputPerMTok: 2,
      cacheReadPerMTok: 0.2,
      cacheWritePerMTok: 2.5,
    });
    expect(priceOf("claude-opus-5-5")).toMatchObject({ inputPerMTok: 4, outputPerMTok: 20, cacheReadPerMTok: 0.2, cacheWritePerMTok: 5 });
    expect(priceOf("claude-opus-5")).toMatchObject({ family: "claude-opus-5", inputPerMTok: 5 });
    expect(priceOf("claude-fable-5-1")).toMatchObject({ inputPerMTok: 10, outputPerMTok: 50 });
  });

  it("prices unknown models as the current Sonnet and flags them", () => {
    expect(priceOf("claude-opus-4-6")).toMatchObject({ known: false, inputPerMTok: 2, outputPerMTok: 10 });
    expect(priceOf("gpt-9")).toMatchObject({ known: false, family: "claude-sonnet-5-5" });
    expect(costOf("mystery-model", million)).toBeCloseTo(12, 10);
    expect(priceOf("claude-sonnet-4-5").known).toBe(true);
  });

  it("knows each model's context window, 200k when unknown", () => {
    expect(contextWindowOf("claude-sonnet-4-5")).toBe(200_000);
    expect(contextWindowOf("claude-sonnet-5-5")).toBe(1_000_000);
    expect(contextWindowOf("unknown")).toBe(200_000);
  });
});
