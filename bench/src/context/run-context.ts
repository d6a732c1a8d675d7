import { fileURLToPath } from "node:url";
import { estimateTokens, type CachePricing } from "@hatloop/context";
import { analyseInput } from "./continuity/analysis.js";
import { readReferenceDecisions } from "./continuity/decisions.js";
import { readDecisionLabels } from "./continuity/decision-noise.js";
import { dumpSink } from "./dump.js";
import type { BenchInput } from "./input.js";
import { replay, type ReplayOptions } from "./replay.js";
import type { InputResult } from "./result.js";
import { STRATEGIES, type Strategy } from "./strategies/index.js";
import { benchSystemPrompt, sessionStats } from "./suite.js";

// Runs every strategy on every input, in the same process and on the same messages.

const decisionsDir = fileURLToPath(new URL("../../corpus/decisions", import.meta.url));
const labels = readDecisionLabels(fileURLToPath(new URL("../../corpus/decision-labels.json", import.meta.url)));

export interface ContextRunOptions {
  pricing: CachePricing;
  /** The strategies to run on an input (default: every strategy at its default). */
  strategies?: readonly Strategy[] | ((input: BenchInput) => readonly Strategy[]);
  /** Write what each strategy sent here (--dump). */
  dumpDir?: string;
  /** Called after each strategy finishes, for progress on stderr. */
  progress?: (input: string, strategy: string) => void;
}

/** What replay() needs for one input: the shared system prompt, prices and the input's analysis. */
export function replayOptions(input: BenchInput, pricing: CachePricing = {}): ReplayOptions {
  const system = benchSystemPrompt();
  return {
    system,
    systemTokens: estimateTokens([], { system: [system] }),
    pricing,
    analysis: analyseInput(input),
    labels,
    reference: input.kind === "transcript" ? readReferenceDecisions(decisionsDir, input.name.replace(/\.jsonl$/, "")) : null,
  };
}

export async function runContextBench(inputs: readonly BenchInput[], options: ContextRunOptions): Promise<InputResult[]> {
  const results: InputResult[] = [];
  for (const input of inputs) {
    const stats = sessionStats(input.messages);
    const shared = replayOptions(input, options.pricing);
    const { analysis, reference } = shared;
    const strategies = [];
    const list = typeof options.strategies === "function" ? options.strategies(input) : (options.strategies ?? STRATEGIES);
    for (const strategy of list) {
      const dump = options.dumpDir ? dumpSink(options.dumpDir, input.name, strategy.name) : undefined;
      strategies.push(await replay(input, strategy, dump ? { ...shared, dump } : shared));
      options.progress?.(input.name, strategy.name);
    }
    const gaps = analysis.sentAt.slice(1).map((t, k) => t - analysis.sentAt[k]!);
    results.push({
      input: input.name,
      kind: input.kind,
      messages: input.messages.length,
      calls: analysis.calls.length,
      window: input.window,
      sessionTokens: stats.tokens,
      toolResultShare: stats.toolResultShare,
      needs: { calls: analysis.needs.filter((n) => n.items.length).length, items: analysis.needs.reduce((n, c) => n + c.items.length, 0) },
      time: analysis.timed
        ? { timed: true, gapsOver5m: gaps.filter((g) => g > 5 * 60_000).length, gapsOver1h: gaps.filter((g) => g > 60 * 60_000).length }
        : { timed: false, gapsOver5m: 0, gapsOver1h: 0 },
      hasReferenceDecisions: reference !== null,
      strategies,
    });
  }
  return results;
}
