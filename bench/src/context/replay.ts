import {
  artifactTrail,
  simulatePromptCache,
  validatePairing,
  type CachePricing,
  type CacheSimulation,
  type CacheTtl,
  type Message,
  type PromptSegment,
  type RequestTiming,
} from "@hatloop/context";
import { searchableText } from "../util/message-text.js";
import type { InputAnalysis } from "./continuity/analysis.js";
import { scoreDecisions, type ReferenceDecisions } from "./continuity/decisions.js";
import { scoreByHand, scoreNoise } from "./continuity/decision-noise.js";
import { wordsAt } from "./continuity/person.js";
import { RequestText } from "./continuity/presence.js";
import type { DumpSink } from "./dump.js";
import { addTallies, emptyTally, scoreFacts, scorePaths } from "./facts-score.js";
import type { BenchInput } from "./input.js";
import { SegmentCache, segmentTokens } from "./segments.js";
import type { Handoff, Strategy, StrategyContext } from "./strategies/index.js";
import type { StrategyResult } from "./result.js";
import { priceSummaryCalls } from "./summary-calls.js";

// Replays one input through one strategy, call by call: before each assistant message the strategy
// gets what was appended and returns the request; the harness prices it (cache model, with the real
// gaps between calls where the transcript has times), checks its pairing, scores what it kept of
// what the agent went on to need, and at 25/50/75/100% of the calls probes which planted facts it
// contains.

const PROBES = [0.25, 0.5, 0.75, 1];

export interface ReplayOptions {
  system: string;
  systemTokens: number;
  pricing: CachePricing;
  analysis: InputAnalysis;
  reference?: ReferenceDecisions | null;
  /** Hand labels of key-decision lines (bench/corpus/decision-labels.json). */
  labels?: ReadonlyMap<string, "decision" | "noise">;
  dump?: DumpSink;
}

export async function replay(input: BenchInput, strategy: Strategy, options: ReplayOptions): Promise<StrategyResult> {
  const { analysis, pricing } = options;
  const ctx: StrategyContext = {
    window: input.window,
    system: options.system,
    systemTokens: options.systemTokens,
    toolNames: analysis.toolNames,
  };
  const run = strategy.start(ctx);
  const segments = new SegmentCache(options.system, input.messages);
  const texts = new RequestText(analysis.text, (m) => segments.originalOf(m));
  const { calls } = analysis;
  const probeAt = new Set(PROBES.map((q) => Math.max(0, Math.ceil(calls.length * q) - 1)));
  const requests: PromptSegment[][] = [];
  const ttls: CacheTtl[] = [];
  const cpu: number[] = [];
  const pairing = { invalidRequests: 0, problems: 0, codes: {} as Record<string, number> };
  const needs = { present: 0, total: 0, recallable: run.recall ? 0 : null };
  const person = { calls: 0, task: 0, latest: 0, missingLatestAt: [] as number[] };
  let live = { tally: emptyTally(), stale: 0, missing: [] as string[] };
  let lastRequest: Message[] = [];
  let from = 0;

  for (const [k, at] of calls.entries()) {
    const started = process.cpuUsage();
    const request = await run.next(input.messages.slice(from, at), analysis.sentAt[k]);
    cpu.push(cpuMs(started));
    from = at;
    const seg = segments.request(request);
    requests.push(seg);
    ttls.push(run.cacheTtl?.() ?? "5m");
    run.usage?.(segmentTokens(seg));
    const problems = validatePairing(request);
    if (problems.length) pairing.invalidRequests++;
    pairing.problems += problems.length;
    for (const p of problems) pairing.codes[p.code] = (pairing.codes[p.code] ?? 0) + 1;
    for (const item of analysis.needs[k]!.items) {
      needs.total++;
      if (texts.holds(request, item)) needs.present++;
      else if (run.recall && needs.recallable !== null && (await run.recall(item)).some((t) => t.includes(item))) needs.recallable++;
    }
    const words = wordsAt(analysis.people, at);
    if (words) {
      person.calls++;
      if (texts.holdsText(request, words.task.head)) person.task++;
      if (texts.holdsText(request, words.latest.head)) person.latest++;
      else if (person.missingLatestAt.length < 20) person.missingLatestAt.push(k);
    }
    if (input.facts && probeAt.has(k)) {
      const score = scoreFacts(
        input.facts.filter((f) => f.messageIndex < at),
        searchableText(request),
      );
      live = { tally: addTallies(live.tally, score.tally), stale: score.stale, missing: score.missing };
    }
    options.dump?.request(k, at, request, (m) => segments.originalOf(m));
    lastRequest = request;
  }
  const started = process.cpuUsage();
  const handoff = await run.handoff(input.messages.slice(from), analysis.sentAt.at(-1));
  const handoffCpuMs = cpuMs(started);

  const timing: RequestTiming[] = analysis.sentAt.map((at, k) => ({ at, ttl: ttls[k]! }));
  const cache = simulatePromptCache(requests, pricing, timing);
  const warm = simulatePromptCache(requests, pricing);
  const all5m = simulatePromptCache(
    requests,
    pricing,
    timing.map((t) => ({ ...t, ttl: "5m" })),
  );
  const all1h = simulatePromptCache(
    requests,
    pricing,
    timing.map((t) => ({ ...t, ttl: "1h" })),
  );
  const summaryCalls = run.summaryCalls?.() ?? [];
  const summaryCostUsd = priceSummaryCalls(summaryCalls, pricing.inputPricePerMTok ?? 3);
  const tokens = requests.map(segmentTokens);
  const paths = artifactTrail(input.messages);
  const livePaths = artifactTrail(input.messages.slice(0, calls.at(-1) ?? 0));
  const result: StrategyResult = {
    strategy: strategy.name,
    calls: calls.length,
    peakTokens: Math.max(0, ...tokens),
    peakPctOfWindow: Math.round((Math.max(0, ...tokens) * 1000) / input.window) / 10,
    meanTokens: tokens.length ? Math.round(tokens.reduce((a, b) => a + b, 0) / tokens.length) : 0,
    callsOverWindow: tokens.filter((t) => t > input.window).length,
    totalInputTokens: cache.totalTokens,
    costUsd: cache.costUsd + summaryCostUsd,
    costs: {
      warmUsd: warm.costUsd + summaryCostUsd,
      ttl5mUsd: all5m.costUsd + summaryCostUsd,
      ttl1hUsd: all1h.costUsd + summaryCostUsd,
      oneHourRequests: ttls.filter((t) => t === "1h").length,
    },
    costUntil: costUntil(tokens, all5m.costUsd <= all1h.costUsd ? all5m : all1h, input.window),
    summaryCostUsd,
    summaryCalls: summaryCalls.length,
    uncachedCostUsd: cache.uncachedCostUsd,
    cacheReadShare: cache.readShare,
    pairing,
    continuity: {
      needs,
      person: { calls: person.calls, task: person.task, latest: person.latest, missingLatestAtCalls: person.missingLatestAt },
      decisions: options.reference
        ? {
            handoff: scoreDecisions(options.reference, handoff.text),
            fullHandoff: handoff.full ? scoreDecisions(options.reference, handoff.full.text) : null,
          }
        : null,
      noise: handoff.decisions
        ? {
            handoff: scoreNoise(handoff.decisions),
            fullHandoff: handoff.full?.decisions ? scoreNoise(handoff.full.decisions) : null,
            byHand: {
              handoff: scoreByHand(handoff.decisions, options.labels ?? new Map()),
              fullHandoff: scoreByHand(handoff.full?.decisions ?? [], options.labels ?? new Map()),
            },
          }
        : null,
    },
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
  options.dump?.finish(handoff, result);
  return result;
}

const UNTIL_PCTS = [50, 60, 70, 80];

/** The cost of the calls before the request first grows past each share of the window. */
function costUntil(tokens: readonly number[], sim: CacheSimulation, window: number): StrategyResult["costUntil"] {
  return UNTIL_PCTS.map((pctOfWindow) => {
    const over = tokens.findIndex((t) => t > (window * pctOfWindow) / 100);
    const before = sim.requests.slice(0, over === -1 ? tokens.length : over);
    return { pctOfWindow, usd: before.reduce((n, r) => n + r.costUsd, 0) };
  });
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
