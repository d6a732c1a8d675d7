import type { Message } from "../messages.js";
import { estimateTokens } from "./estimate-tokens.js";
import { removeToolResponses, type RemovalOptions } from "./filter-tool-responses.js";

// Seed 004 Layer 0: try removal levels in order and keep the first that gets the context under
// targetPct of the compaction threshold. Each level starts from the given messages (levels are not
// cumulative), and the frozen set keeps earlier removals in place, so the prefix cached since the
// last compaction survives. Call it when the pressure latch fires — not every iteration.

export const DEFAULT_REMOVAL_LEVELS: readonly number[] = [0, 10, 20, 50, 100];

export interface CompactOptions extends RemovalOptions {
  /** The compaction threshold in tokens (e.g. 90% of the window). */
  compactAt: number;
  /** Aim under this percentage of compactAt. Default 80. */
  targetPct?: number;
  /** Removal percentages, tried in order. Default [0, 10, 20, 50, 100]. */
  levels?: readonly number[];
  /** Token count of a candidate; default estimateTokens. Pass one that adds system and tools. */
  estimate?: (messages: readonly Message[]) => number;
}

export interface CompactResult {
  messages: Message[];
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

export function compactProgressive(messages: readonly Message[], options: CompactOptions): CompactResult {
  const { compactAt, targetPct = 80, levels = DEFAULT_REMOVAL_LEVELS } = options;
  if (!(compactAt > 0)) throw new RangeError(`compactAt must be > 0, got ${compactAt}`);
  if (levels.length === 0) throw new RangeError("levels must not be empty");
  const estimate = options.estimate ?? ((m: readonly Message[]) => estimateTokens(m));
  const targetTokens = Math.floor((compactAt * targetPct) / 100);
  const tokensBefore = estimate(messages);

  const attempt = (level: number): CompactResult => {
    const step = removeToolResponses(messages, level, { seqs: options.seqs, frozen: options.frozen });
    const tokensAfter = estimate(step.messages);
    return {
      messages: step.messages,
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
  for (const level of levels.slice(1)) {
    if (result.underTarget) break;
    result = attempt(level);
  }
  return result;
}
