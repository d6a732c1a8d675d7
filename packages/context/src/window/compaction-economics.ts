// What a session pays for its context, as a function of when it compacts and how much it keeps.
// Every call re-reads the live context from the prompt cache (read rate r per token) and writes what
// was appended since the last call (write rate w). A compaction at size T down to size R makes the
// next call write all R instead of reading it, (w - r)·R more, and may pay a summary call S. Growing
// from R to T at g tokens per call takes (T - R)/g calls, so the mean cost per call is
//
//   r·(R + T)/2 + w·g + ((w - r)·R + S)·g/(T - R)
//
// which is least at T = R + sqrt(2·((w - r)·R + S)·g / r). With Anthropic's prices (r = 0.1, w = 1.25
// of the input price) and no summary, T - R = sqrt(23·R·g): keeping 20k and growing 2k a call, the
// cheapest moment to compact is at about 50k, far below the 90% guard zone of a 200k window.

interface CacheRates {
  /** Price of a cached input token (read), any unit. */
  read: number;
  /** Price of a written input token, same unit. */
  write: number;
}

/** Anthropic's rates relative to the base input price (5-minute cache TTL). */
const ANTHROPIC_RATES: CacheRates = { read: 0.1, write: 1.25 };

export interface CycleInputs {
  /** Tokens appended per call, on average. */
  growthPerCall: number;
  /** Live context right after a compaction. */
  residualTokens: number;
  /** What one compaction costs besides the rewrite (a summary call), in the same unit as the rates. */
  compactionCost?: number;
  rates?: CacheRates;
}

/** The context size at which compacting back to `residualTokens` costs least per call, in the long run. */
export function cheapestTrigger(inputs: CycleInputs): number {
  const { read, write } = inputs.rates ?? ANTHROPIC_RATES;
  const g = Math.max(0, inputs.growthPerCall);
  const R = Math.max(0, inputs.residualTokens);
  const once = (write - read) * R + Math.max(0, inputs.compactionCost ?? 0);
  return R + Math.sqrt((2 * once * g) / read);
}

/** Mean cost per call of the cycle "grow from R to T, compact back to R" (same unit as the rates). */
export function cycleCostPerCall(inputs: CycleInputs, trigger: number): number {
  const { read, write } = inputs.rates ?? ANTHROPIC_RATES;
  const g = Math.max(0, inputs.growthPerCall);
  const R = inputs.residualTokens;
  if (!(trigger > R) || g === 0) return read * R + write * g;
  const once = (write - read) * R + Math.max(0, inputs.compactionCost ?? 0);
  return (read * (R + trigger)) / 2 + write * g + (once * g) / (trigger - R);
}
