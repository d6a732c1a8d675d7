import type { FactScore } from "./facts-score.js";

// What the context bench reports per strategy and input. Everything but `timing` is deterministic:
// the same seed and transcripts give byte-identical values.

interface PathScore {
  present: number;
  total: number;
  missing: string[];
}

export interface StrategyResult {
  strategy: string;
  calls: number;
  peakTokens: number;
  peakPctOfWindow: number;
  /** Requests larger than the window: the API would refuse them. */
  callsOverWindow: number;
  totalInputTokens: number;
  /** The conversation's requests plus the summary calls. */
  costUsd: number;
  /** The summary calls alone (included in costUsd). */
  summaryCostUsd: number;
  summaryCalls: number;
  uncachedCostUsd: number;
  cacheReadShare: number;
  /** validatePairing over every request: requests with a problem, problems, problems by code. */
  pairing: { invalidRequests: number; problems: number; codes: Record<string, number> };
  /** Summed over the four probes (facts planted before each probe); stale and missing at the last probe. */
  factsLive: FactScore | null;
  factsHandoff: FactScore | null;
  factsFullHandoff: FactScore | null;
  /** Modified paths (from write/edit calls) in the last request. */
  pathsLive: PathScore;
  pathsHandoff: PathScore;
  pathsFullHandoff: PathScore | null;
  handoff: { tokens: number; describe: string; fullTokens: number | null; fullDescribe: string | null };
  stats: Record<string, number>;
  timing: { cpuMsPerCall: number; cpuMsMaxCall: number; handoffCpuMs: number };
}

export interface InputResult {
  input: string;
  kind: "synthetic" | "transcript";
  messages: number;
  calls: number;
  window: number;
  /** Estimated tokens of the whole session, once. */
  sessionTokens: number;
  /** Share of those tokens in tool results. */
  toolResultShare: number;
  strategies: StrategyResult[];
}
