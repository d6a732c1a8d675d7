import type { Message } from "../messages.js";
import { messagesOf, type SameEntry, type WindowEntry } from "./entry.js";
import { estimateTokens } from "./estimate-tokens.js";
import { removeToolResponses, type RemovalOptions } from "./filter-tool-responses.js";

// Layer 0 (docs/design/context-layers.md): climb the removal levels to the first that gets the context under the
// target, then bisect down to the least removal that still does. Each level starts from the given entries (levels are
// not cumulative), and the frozen set keeps earlier removals in place, so the prefix cached since the
// last compaction survives. Call it when the pressure latch fires — not every iteration.

const DEFAULT_REMOVAL_LEVELS: readonly number[] = [0, 10, 20, 50, 100];

export interface CompactOptions extends RemovalOptions {
  /** The compaction threshold in tokens (e.g. 90% of the window). */
  compactAt: number;
  /** Aim under this percentage of compactAt. Default 80. */
  targetPct?: number;
  /** Aim under this many tokens instead (a cost policy's residual); wins over targetPct. */
  targetTokens?: number;
  /** Removal percentages, tried in order. Default [0, 10, 20, 50, 100]. */
  levels?: readonly number[];
  /** Token count of a candidate; default estimateTokens. Pass one that adds system and tools. */
  estimate?: (messages: readonly Message[]) => number;
}

export interface CompactResult<T> {
  /** Every entry, in order, with its results stubbed at the chosen level. */
  kept: SameEntry<T>[];
  /** The removal percentage used (the last level when none got under target). */
  level: number;
  /** tool_use_ids newly stubbed at that level, middle first. */
  removed: string[];
  /** Every stubbed tool_use_id in the output: the next call's `frozen`. */
  frozen: string[];
  tokensBefore: number;
  tokensAfter: number;
  /** False: even the last level stays over target; go on to turn-aware pruning and a summary. */
  underTarget: boolean;
  /** The target in tokens: ⌊compactAt · targetPct / 100⌋. */
  targetTokens: number;
}

export function compactProgressive<T extends WindowEntry>(entries: readonly T[], options: CompactOptions): CompactResult<T> {
  const { compactAt, targetPct = 80, levels = DEFAULT_REMOVAL_LEVELS } = options;
  if (!(compactAt > 0)) throw new RangeError(`compactAt must be > 0, got ${compactAt}`);
  if (levels.length === 0) throw new RangeError("levels must not be empty");
  const estimate = options.estimate ?? ((m: readonly Message[]) => estimateTokens(m));
  const targetTokens = options.targetTokens ?? Math.floor((compactAt * targetPct) / 100);
  const tokensBefore = estimate(entries.map((e) => e.message));

  const attempt = (level: number): CompactResult<T> => {
    const step = removeToolResponses(entries, level, { frozen: options.frozen });
    const tokensAfter = estimate(messagesOf(step.kept));
    return {
      kept: step.kept,
      level,
      removed: step.removed,
      frozen: step.stubbed,
      tokensBefore,
      tokensAfter,
      underTarget: tokensAfter < targetTokens,
      targetTokens,
    };
  };
  let result = attempt(levels[0]!);
  let below = result;
  for (const level of levels.slice(1)) {
    if (result.underTarget) break;
    below = result;
    result = attempt(level);
  }
  return result.underTarget && result !== below ? refine(below.level, result, attempt) : result;
}

/**
 * The least removal between a level that was not enough and one that was: a coarse step (50% to
 * 100%) would stub the newest results too, and they are what the model reads next.
 */
function refine<T>(low: number, enough: CompactResult<T>, attempt: (level: number) => CompactResult<T>): CompactResult<T> {
  let best = enough;
  let lo = low;
  let hi = enough.level;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const candidate = attempt(mid);
    if (candidate.underTarget) {
      best = candidate;
      hi = mid;
    } else lo = mid;
  }
  return best;
}
