import { estimateTokens, type CachePricing } from "@hatloop/context";
import type { BenchInput } from "./input.js";
import { replay } from "./replay.js";
import type { InputResult } from "./result.js";
import { STRATEGIES, type Strategy } from "./strategies/index.js";
import { benchSystemPrompt, sessionStats } from "./suite.js";

// Runs every strategy on every input, in the same process and on the same messages.

export interface ContextRunOptions {
  pricing: CachePricing;
  strategies?: readonly Strategy[];
  /** Called after each strategy finishes, for progress on stderr. */
  progress?: (input: string, strategy: string) => void;
}

export async function runContextBench(inputs: readonly BenchInput[], options: ContextRunOptions): Promise<InputResult[]> {
  const system = benchSystemPrompt();
  const systemTokens = estimateTokens([], { system: [system] });
  const results: InputResult[] = [];
  for (const input of inputs) {
    const stats = sessionStats(input.messages);
    const strategies = [];
    for (const strategy of options.strategies ?? STRATEGIES) {
      strategies.push(await replay(input, strategy, { window: input.window, system, systemTokens }, options.pricing));
      options.progress?.(input.name, strategy.name);
    }
    results.push({
      input: input.name,
      kind: input.kind,
      messages: input.messages.length,
      calls: strategies[0]?.calls ?? 0,
      window: input.window,
      sessionTokens: stats.tokens,
      toolResultShare: stats.toolResultShare,
      strategies,
    });
  }
  return results;
}
