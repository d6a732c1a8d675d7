import type { SummaryCall } from "./strategies/types.js";

// The price of the summary calls a strategy makes, on top of its conversation requests: input at the
// summarising model's price (read from the prompt cache where it shares the conversation's prefix),
// plus output. Prices are relative to the main model's input price (the bench's --price): Sonnet
// costs $3 in / $15 out, so main output is 5x; the summary model is Haiku, $1 in / $5 out.

export const SUMMARY_PRICE_RATIOS = {
  main: { input: 1, output: 5 },
  summary: { input: 1 / 3, output: 5 / 3 },
  cacheRead: 0.1,
} as const;

export function priceSummaryCalls(calls: readonly SummaryCall[], inputPricePerMTok: number): number {
  const perToken = inputPricePerMTok / 1_000_000;
  return calls.reduce((usd, call) => {
    const rates = SUMMARY_PRICE_RATIOS[call.model];
    const fresh = Math.max(0, call.inputTokens - call.cachedTokens);
    return usd + perToken * (rates.input * (fresh + call.cachedTokens * SUMMARY_PRICE_RATIOS.cacheRead) + rates.output * call.outputTokens);
  }, 0);
}
