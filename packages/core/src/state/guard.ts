import { DEFAULT_ESTIMATE, INITIAL_LATCH_STATE, type CacheTtl, type LatchState } from "@hatloop/context";

// What context management remembers between calls, as data in the loop state: checkpointed with it
// and restored on resume, so a resumed run goes on from the same pressure episode, growth estimate
// and cache-TTL choice instead of starting them afresh. The context hook (core/context/manager.ts)
// reads it from the view and hands back the next one; only the loop's write path stores it.

/** The cost policy's observations (core/context/policy.ts). */
export interface PolicyState {
  /** Tokens appended per call, a moving average; null until the context grew once. */
  growth: number | null;
  /** The last measured size. */
  previous: number | null;
  /** What the last compaction kept. */
  kept: number | null;
  /** Calls since the last compaction; null: none yet (as far apart as can be). */
  callsSince: number | null;
}

/** The prompt-cache TTL chooser's observations (core/context/cache-ttl.ts). */
export interface TtlState {
  /** When the last request was sent. */
  last: number | null;
  ttl: CacheTtl;
  /** Recent gaps between requests, ms. */
  gaps: number[];
  /** Recent tokens written to the cache per request. */
  writes: number[];
  lastTokens: number;
  /** The next request rewrites the prefix anyway (first call, compaction, expiry): the TTL may change there. */
  rewritten: boolean;
  /** The pending rewrite is a compaction's (paid at either TTL), not an expiry (which the hour avoids). */
  compacted: boolean;
  calls: number;
  /** The call counts at the last compactions. */
  compactionCalls: number[];
}

export interface GuardState {
  latch: LatchState;
  /** A compaction is due before the next call (the zones or the cost policy asked). */
  compactRequested: boolean;
  /** The last measured (or compacted-to) size of the next request. */
  lastTokens: number;
  /** Characters per token of this session's content, recalibrated by the API's count of an overflow. */
  charsPerToken: number;
  policy: PolicyState;
  ttl: TtlState;
}

export function initialGuard(): GuardState {
  return {
    latch: INITIAL_LATCH_STATE,
    compactRequested: false,
    lastTokens: 0,
    charsPerToken: DEFAULT_ESTIMATE.charsPerToken,
    policy: { growth: null, previous: null, kept: null, callsSince: null },
    ttl: {
      last: null,
      ttl: "5m",
      gaps: [],
      writes: [],
      lastTokens: 0,
      rewritten: true,
      compacted: false,
      calls: 0,
      compactionCalls: [],
    },
  };
}
