import { syntheticInputs } from "/work/main/bench/dist/context/suite.js";
import { runContextBench } from "/work/main/bench/dist/context/run-context.js";
const lengths = process.argv.slice(2).map(Number);
const inputs = syntheticInputs(1, lengths);
const t0 = performance.now();
const res = await runContextBench(inputs, { pricing: {}, progress: (i, s) => console.error(i, s, ((performance.now()-t0)/1000).toFixed(1)+"s") });
for (const r of res) {
  console.log(r.input, r.sessionTokens, r.toolResultShare.toFixed(2));
  for (const s of r.strategies) console.log(JSON.stringify({ s: s.strategy, peak: s.peakTokens, pct: s.peakPctOfWindow, over: s.callsOverWindow, total: s.totalInputTokens, cost: s.costUsd.toFixed(2), read: s.cacheReadShare.toFixed(3), inv: s.pairing.invalidRequests, codes: s.pairing.codes, live: s.factsLive?.tally, liveMissing: s.factsLive?.missing, stale: s.factsLive?.stale, ho: s.factsHandoff?.tally, hoMissing: s.factsHandoff?.missing, hoStale: s.factsHandoff?.stale, full: s.factsFullHandoff?.tally, paths: [s.pathsLive.present, s.pathsLive.total, s.pathsHandoff.present, s.pathsHandoff.total, s.pathsFullHandoff?.present], hoTok: s.handoff.tokens, fullTok: s.handoff.fullTokens, stats: s.stats, cpu: s.timing.cpuMsPerCall.toFixed(2), cpuMax: s.timing.cpuMsMaxCall.toFixed(1) }));
}
