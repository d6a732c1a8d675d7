import { cheapestTrigger } from "@hatloop/context";
import type { HatloopConfig } from "../config.js";
import type { PolicyState } from "../state/guard.js";

// When to compact, from what the context costs rather than at a fixed 90%. Each call re-reads the
// live context (cached) and writes what was appended; a compaction makes the next call rewrite what
// it kept, and a summary call costs extra. context/window/compaction-economics.ts turns that into
// the context size at which compacting back to the kept size costs least per call; this module
// feeds it what it observes (tokens appended per call, what a compaction really kept) and keeps
// the guard's zones as upper bounds. `zones` turns the policy off: compaction at compactPct only.

export type PolicyName = HatloopConfig["context"]["policy"];

/**
 * What each policy keeps after a compaction, as a share of the window: the cost/continuity trade-off.
 * `balanced` is where, on the real corpus, no peer setting is both cheaper and keeps more of what the
 * agent later needs (docs/benchmarks.md); `economy` is cheaper and loses more, `roomy` the reverse.
 */
export const POLICY_RESIDUAL_PCT: Record<Exclude<PolicyName, "zones">, number> = { economy: 12, balanced: 25, roomy: 35 };

/** Calls a compaction must be apart at least, whatever the cost model says (no thrashing). */
const MIN_CALLS_APART = 3;
/** Weight of the newest call in the growth average. */
const GROWTH_WEIGHT = 0.3;

export interface SummaryPricing {
  /** A summary's input token in main-model input tokens (e.g. Haiku input / Sonnet input). */
  inputRatio: number;
  /** The summary prompts' size at most, in their own tokens (they bound what they quote). */
  maxInputTokens: number;
  /** What a summary's output costs, in main-model input tokens. */
  outputTokens: number;
}

/** The policy's settings; what it has observed is data in the guard's state (PolicyState), threaded through these pure methods. */
export class CompactionPolicy {
  constructor(
    private readonly name: PolicyName,
    /** Null when compactions make no summary call (mechanical summaries). */
    private readonly summary: SummaryPricing | null,
  ) {}

  /** After each measurement of the next request. */
  observe(state: PolicyState, tokens: number): PolicyState {
    let { growth } = state;
    if (state.previous !== null && tokens > state.previous) {
      const added = tokens - state.previous;
      growth = growth === null ? added : growth * (1 - GROWTH_WEIGHT) + added * GROWTH_WEIGHT;
    }
    return { ...state, growth, previous: tokens, callsSince: state.callsSince === null ? null : state.callsSince + 1 };
  }

  /** After a compaction, with what it kept. */
  compacted(state: PolicyState, tokensAfter: number): PolicyState {
    return { ...state, kept: tokensAfter, previous: tokensAfter, callsSince: 0 };
  }

  /** What a compaction should keep, in tokens; null under `zones` (the guard's target applies). */
  residual(window: number): number | null {
    return this.name === "zones" ? null : Math.floor((window * POLICY_RESIDUAL_PCT[this.name]) / 100);
  }

  /** The size at which compacting now is cheapest; null while unknown or under `zones`. */
  trigger(state: PolicyState, window: number): number | null {
    const target = this.residual(window);
    if (target === null || state.growth === null) return null;
    // What compactions really keep (pruning keeps whole turns) counts, when it is more.
    const residual = Math.max(target, state.kept ?? 0);
    let trigger = cheapestTrigger({ growthPerCall: state.growth, residualTokens: residual });
    if (this.summary) {
      // The summary reads what is dropped (about trigger - residual, up to its prompts' bound): two rounds settle it.
      const { inputRatio, maxInputTokens, outputTokens } = this.summary;
      for (let i = 0; i < 2; i++)
        trigger = cheapestTrigger({
          growthPerCall: state.growth,
          residualTokens: residual,
          compactionCost: Math.min(trigger - residual, maxInputTokens) * inputRatio + outputTokens,
        });
    }
    return trigger;
  }

  /** Whether the cost model says to compact at this size (the zones decide separately). */
  wants(state: PolicyState, tokens: number, window: number): boolean {
    const trigger = this.trigger(state, window);
    // No compaction yet: as far apart from the last one as can be.
    const apart = state.callsSince === null || state.callsSince >= MIN_CALLS_APART;
    return trigger !== null && apart && tokens >= trigger;
  }
}
