import type { DecisionScore } from "./continuity/decisions.js";
import type { HandLabelled, NoiseScore } from "./continuity/decision-noise.js";
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
  /** Mean request size: what a session costs is mostly this, re-read every call. */
  meanTokens: number;
  /** Requests larger than the window: the API would refuse them. */
  callsOverWindow: number;
  totalInputTokens: number;
  /** The conversation's requests plus the summary calls, with the strategy's own cache TTLs and the real gaps. */
  costUsd: number;
  /** The same requests priced other ways: a cache that never expires, every request at 5m, every request at 1h. */
  costs: { warmUsd: number; ttl5mUsd: number; ttl1hUsd: number; oneHourRequests: number };
  /** What the requests before the first one over each share of the window cost (at the cheaper of 5m and 1h for the whole run). */
  costUntil: { pctOfWindow: number; usd: number }[];
  /** The summary calls alone (included in costUsd). */
  summaryCostUsd: number;
  summaryCalls: number;
  uncachedCostUsd: number;
  cacheReadShare: number;
  /** validatePairing over every request: requests with a problem, problems, problems by code. */
  pairing: { invalidRequests: number; problems: number; codes: Record<string, number> };
  /** What the strategy kept of what the agent went on to need (continuity/). */
  continuity: Continuity;
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
  /** Calls that needed something from old context, and the items needed in all. */
  needs: { calls: number; items: number };
  /** Whether the transcript has times; gaps between requests over the two TTLs. */
  time: { timed: boolean; gapsOver5m: number; gapsOver1h: number };
  hasReferenceDecisions: boolean;
  strategies: StrategyResult[];
}

interface Continuity {
  /**
   * Items the agent's answers used from context older than their recent turns, summed over calls;
   * present: in the request; recallable: not in it, but one recall call for the item brings back a
   * message holding it (null: the strategy has no recall).
   */
  needs: { present: number; total: number; recallable: number | null };
  /** Calls with a person's message before them; how many requests held the task and the latest one. */
  person: { calls: number; task: number; latest: number; missingLatestAtCalls: number[] };
  /** Against the session's reference decisions, when it has a list. */
  decisions: { handoff: DecisionScore; fullHandoff: DecisionScore | null } | null;
  /** Noise among the key decisions the handoff lists, when it has such a list: by the bench's rules, and by the hand labels. */
  noise: { handoff: NoiseScore; fullHandoff: NoiseScore | null; byHand: { handoff: HandLabelled; fullHandoff: HandLabelled } } | null;
}
