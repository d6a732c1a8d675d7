import { artifactTrail, simulatePromptCache, validatePairing, type CachePricing, type Message, type PromptSegment } from "@hatloop/context";
import { searchableText } from "../util/message-text.js";
import { addTallies, emptyTally, scoreFacts, scorePaths } from "./facts-score.js";
import type { BenchInput } from "./input.js";
import { SegmentCache, segmentTokens } from "./segments.js";
import type { Handoff, Strategy, StrategyContext } from "./strategies/index.js";
import type { StrategyResult } from "./result.js";
import { priceSummaryCalls } from "./summary-calls.js";

// Replays one input through one strategy, call by call: before each assistant message the strategy
// gets what was appended and returns the request; the harness prices it (cache model), checks its
// pairing, and at 25/50/75/100% of the calls probes which planted facts the request contains.

const PROBES = [0.25, 0.5, 0.75, 1];

export async function replay(input: BenchInput, strategy: Strategy, ctx: StrategyContext, pricing: CachePricing): Promise<StrategyResult> {
  const run = strategy.start(ctx);
  const segments = new SegmentCache(ctx.system);
  const calls = input.messages.flatMap((m, i) => (m.role === "assistant" ? [i] : []));
  const probeAt = new Set(PROBES.map((q) => Math.max(0, Math.ceil(calls.length * q) - 1)));
  const requests: PromptSegment[][] = [];
  const cpu: number[] = [];
  const pairing = { invalidRequests: 0, problems: 0, codes: {} as Record<string, number> };
  let live = { tally: emptyTally(), stale: 0, missing: [] as string[] };
  let lastRequest: Message[] = [];
  let from = 0;

  for (const [k, at] of calls.entries()) {
    const started = process.cpuUsage();
    const request = await run.next(input.messages.slice(from, at));
    cpu.push(cpuMs(started));
    from = at;
    const seg = segments.request(request);
    requests.push(seg);
    run.usage?.(segmentTokens(seg));
    const problems = validatePairing(request);
    if (problems.length) pairing.invalidRequests++;
    pairing.problems += problems.length;
    for (const p of problems) pairing.codes[p.code] = (pairing.codes[p.code] ?? 0) + 1;
    if (input.facts && probeAt.has(k)) {
      const score = scoreFacts(
        input.facts.filter((f) => f.messageIndex < at),
        searchableText(request),
      );
      live = { tally: addTallies(live.tally, score.tally), stale: score.stale, missing: score.missing };
    }
    lastRequest = request;
  }
  const started = process.cpuUsage();
  const handoff = await run.handoff(input.messages.slice(from));
  const handoffCpuMs = cpuMs(started);

  const cache = simulatePromptCache(requests, pricing);
  const summaryCalls = run.summaryCalls?.() ?? [];
  const summaryCostUsd = priceSummaryCalls(summaryCalls, pricing.inputPricePerMTok ?? 3);
  const tokens = requests.map(segmentTokens);
  const paths = artifactTrail(input.messages);
  const livePaths = artifactTrail(input.messages.slice(0, calls.at(-1) ?? 0));
  return {
    strategy: strategy.name,
    calls: calls.length,
    peakTokens: Math.max(0, ...tokens),
    peakPctOfWindow: Math.round((Math.max(0, ...tokens) * 1000) / input.window) / 10,
    callsOverWindow: tokens.filter((t) => t > input.window).length,
    totalInputTokens: cache.totalTokens,
    costUsd: cache.costUsd + summaryCostUsd,
    summaryCostUsd,
    summaryCalls: summaryCalls.length,
    uncachedCostUsd: cache.uncachedCostUsd,
    cacheReadShare: cache.readShare,
    pairing,
    factsLive: input.facts ? live : null,
    factsHandoff: input.facts ? scoreFacts(input.facts, handoff.text) : null,
    factsFullHandoff: input.facts && handoff.full ? scoreFacts(input.facts, handoff.full.text) : null,
    pathsLive: scorePaths(livePaths, searchableText(lastRequest)),
    pathsHandoff: scorePaths(paths, handoff.text),
    pathsFullHandoff: handoff.full ? scorePaths(paths, handoff.full.text) : null,
    handoff: describeHandoff(handoff),
    stats: run.stats(),
    timing: { cpuMsPerCall: mean(cpu), cpuMsMaxCall: Math.max(0, ...cpu), handoffCpuMs },
  };
}

function describeHandoff(h: Handoff): StrategyResult["handoff"] {
  return { tokens: h.tokens, describe: h.describe, fullTokens: h.full?.tokens ?? null, fullDescribe: h.full?.describe ?? null };
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}

function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}
