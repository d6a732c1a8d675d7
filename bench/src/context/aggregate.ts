import { addTallies, emptyTally, type Tally } from "./facts-score.js";
import type { InputResult, StrategyResult } from "./result.js";

// Groups of inputs reported together (the synthetic sessions of one length; each transcript on its
// own), with every strategy's figures summed over the group: tokens and dollars add up, facts and
// paths are counted over all of them, peaks are maxima, CPU and handoff sizes are means.

export interface Row {
  strategy: string;
  peakPct: number;
  callsOverWindow: number;
  calls: number;
  inputTokens: number;
  costUsd: number;
  cacheReadShare: number;
  invalidRequests: number;
  problems: number;
  live: Tally | null;
  staleLive: number | null;
  handoff: Tally | null;
  staleHandoff: number | null;
  fullHandoff: Tally | null;
  pathsLive: [number, number];
  pathsHandoff: [number, number];
  pathsFullHandoff: [number, number] | null;
  handoffTokens: number;
  fullHandoffTokens: number | null;
  cpuMsPerCall: number;
}

export interface Group {
  title: string;
  inputs: string[];
  window: number;
  rows: Row[];
}

export function groupResults(results: readonly InputResult[]): Group[] {
  const groups = new Map<string, InputResult[]>();
  for (const r of results) {
    const key = r.kind === "synthetic" ? `Synthetic sessions, ${r.calls} iterations` : `Transcript ${r.input}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups].map(([title, members]) => ({
    title,
    inputs: members.map((m) => m.input),
    window: members[0]!.window,
    rows: members[0]!.strategies.map((s) => row(members.map((m) => m.strategies.find((x) => x.strategy === s.strategy)!))),
  }));
}

function row(runs: readonly StrategyResult[]): Row {
  const sum = (f: (r: StrategyResult) => number): number => runs.reduce((n, r) => n + f(r), 0);
  const tallies = (f: (r: StrategyResult) => Tally | undefined): Tally | null =>
    runs.every((r) => f(r)) ? runs.reduce((t, r) => addTallies(t, f(r)!), emptyTally()) : null;
  const pair = (f: (r: StrategyResult) => { present: number; total: number } | null): [number, number] => [
    sum((r) => f(r)?.present ?? 0),
    sum((r) => f(r)?.total ?? 0),
  ];
  const readTokens = sum((r) => r.cacheReadShare * r.totalInputTokens);
  const inputTokens = sum((r) => r.totalInputTokens);
  const hasFull = runs.every((r) => r.pathsFullHandoff !== null);
  return {
    strategy: runs[0]!.strategy,
    peakPct: Math.max(...runs.map((r) => r.peakPctOfWindow)),
    callsOverWindow: sum((r) => r.callsOverWindow),
    calls: sum((r) => r.calls),
    inputTokens,
    costUsd: sum((r) => r.costUsd),
    cacheReadShare: inputTokens ? readTokens / inputTokens : 0,
    invalidRequests: sum((r) => r.pairing.invalidRequests),
    problems: sum((r) => r.pairing.problems),
    live: tallies((r) => r.factsLive?.tally),
    staleLive: runs.every((r) => r.factsLive) ? sum((r) => r.factsLive!.stale) : null,
    handoff: tallies((r) => r.factsHandoff?.tally),
    staleHandoff: runs.every((r) => r.factsHandoff) ? sum((r) => r.factsHandoff!.stale) : null,
    fullHandoff: tallies((r) => r.factsFullHandoff?.tally),
    pathsLive: pair((r) => r.pathsLive),
    pathsHandoff: pair((r) => r.pathsHandoff),
    pathsFullHandoff: hasFull ? pair((r) => r.pathsFullHandoff) : null,
    handoffTokens: Math.round(sum((r) => r.handoff.tokens) / runs.length),
    fullHandoffTokens: runs.every((r) => r.handoff.fullTokens !== null)
      ? Math.round(sum((r) => r.handoff.fullTokens!) / runs.length)
      : null,
    cpuMsPerCall:
      sum((r) => r.timing.cpuMsPerCall * r.calls) /
      Math.max(
        1,
        sum((r) => r.calls),
      ),
  };
}
