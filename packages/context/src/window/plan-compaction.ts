import { toolResults, type Message } from "../messages.js";
import { compactProgressive, type CompactOptions } from "./compact-progressive.js";
import { messagesOf, rekey, type KeptEntry, type WindowEntry } from "./entry.js";
import { estimateTokens } from "./estimate-tokens.js";
import { removeToolResponses } from "./filter-tool-responses.js";
import { pruneTurns, type PruneTurnsOptions } from "./prune-turns.js";

// The whole shrinking path in the right order, for the context hook to call once the pressure
// latch fires: Layer 0 (progressive removal) first; when even 100% is not enough, turn-aware
// pruning. Pruning starts again from the history with only the frozen stubs applied — not from the
// 100% result — so the newest turn really is lossless, and it is bounded by the target (minus room
// for the summary packet the caller will inject).

export interface PlanCompactionOptions extends CompactOptions {
  /** Pruning policy's turn count. Default 4. */
  keepTurns?: number;
  /** Zone for the pruning policy. Default "compact" (we only prune under pressure). */
  zone?: PruneTurnsOptions["zone"];
  zonePolicy?: PruneTurnsOptions["zonePolicy"];
  /** Tokens to leave free under the target for the summary packet. Default 0. */
  reserveTokens?: number;
  /**
   * Stubbed results the live context may carry before removal stops being enough: past this, old
   * turns are pruned (and summarised) instead. Stubs are small, so without a bound they pile up
   * over a long session and fill the window with pairs that say little. Default: no bound.
   */
  maxStubs?: number;
}

export interface CompactionPlan<T> {
  strategy: "removal" | "pruning";
  /** The compacted history, each message with the entry it came from. */
  kept: KeptEntry<T>[];
  /** The removal level reached (100 or the last level when pruning followed). */
  level: number;
  /** Newly stubbed tool_use_ids (removal), or distilled ones (pruning). */
  removed: string[];
  /** Every stubbed tool_use_id in the output: keep it and pass it back as `frozen`. */
  frozen: string[];
  /** Entries to summarise, in order (pruning only). */
  dropped: T[];
  /** Entries of summary/resume artifacts taken out (pruning only). */
  artifacts: T[];
  tokensBefore: number;
  tokensAfter: number;
  targetTokens: number;
  /** Still over target after everything (one enormous step): the caller must fall back further. */
  underTarget: boolean;
}

export function planCompaction<T extends WindowEntry>(entries: readonly T[], options: PlanCompactionOptions): CompactionPlan<T> {
  const removal = compactProgressive(entries, options);
  const base = { level: removal.level, tokensBefore: removal.tokensBefore, targetTokens: removal.targetTokens };
  if (removal.underTarget && removal.frozen.length <= (options.maxStubs ?? Number.POSITIVE_INFINITY)) {
    return {
      ...base,
      strategy: "removal",
      kept: removal.kept,
      removed: removal.removed,
      frozen: removal.frozen,
      dropped: [],
      artifacts: [],
      tokensAfter: removal.tokensAfter,
      underTarget: true,
    };
  }

  const estimate = options.estimate ?? ((m: readonly Message[]) => estimateTokens(m));
  const frozenOnly = removeToolResponses(entries, 0, { frozen: options.frozen });
  // Pruning reads the frozen-stubbed messages; each leads back to the caller's entry.
  const staged = frozenOnly.kept.map(({ entry, message }) => ({ entry, message, seq: entry.seq }));
  const pruned = pruneTurns(staged, {
    keepTurns: options.keepTurns,
    zone: options.zone ?? "compact",
    zonePolicy: options.zonePolicy,
    maxTokens: Math.max(0, removal.targetTokens - 1 - (options.reserveTokens ?? 0)),
    estimate,
  });
  const kept = rekey(pruned.kept, (s) => s.entry);
  const messages = messagesOf(kept);
  const present = new Set(messages.flatMap(toolResults).map((r) => r.tool_use_id));
  const frozen = [...new Set([...frozenOnly.stubbed, ...pruned.distilled])].filter((id) => present.has(id));
  const tokensAfter = estimate(messages);
  return {
    ...base,
    strategy: "pruning",
    kept,
    removed: pruned.distilled,
    frozen,
    dropped: pruned.dropped.map((s) => s.entry),
    artifacts: pruned.artifacts.map((s) => s.entry),
    tokensAfter,
    underTarget: tokensAfter < removal.targetTokens,
  };
}
