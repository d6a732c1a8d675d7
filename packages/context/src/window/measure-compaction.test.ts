import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { compactProgressive } from "./compact-progressive.js";
import { messagesOf } from "./entry.js";
import { estimateTokens } from "./estimate-tokens.js";
import { planCompaction } from "./plan-compaction.js";
import { pruneTurns } from "./prune-turns.js";
import { summarizeMechanically } from "./summarize-mechanical.js";
import { syntheticTranscript } from "./test-support/transcripts.js";
import { validatePairing } from "./validate-pairing.js";

// Timing helper, not a benchmark: prints how long the guard's compaction path takes on a
// ~200k-token history. Timings are printed, never asserted (machines differ).

describe("measurement: compaction on a ~200k-token history", () => {
  it("prints the time of compactProgressive + pruneTurns + the mechanical summary", () => {
    const history = syntheticTranscript({ seed: 42, turns: 65, resultChars: 2_500 });
    const stored = history.map((message, k) => ({ message, seq: k + 1 }));
    const tokens = estimateTokens(history);
    expect(tokens).toBeGreaterThan(180_000);
    expect(tokens).toBeLessThan(240_000);

    const runs: Array<{ compact: number; prune: number; summary: number }> = [];
    let last: { level: number; after: number; pruned: number; kept: number } | undefined;
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      const compacted = compactProgressive(stored, { compactAt: 180_000 });
      const t1 = performance.now();
      const pruned = pruneTurns(compacted.kept, { keepTurns: 4, zone: "compact" });
      const t2 = performance.now();
      summarizeMechanically(pruned.dropped.map((k) => k.message));
      const t3 = performance.now();
      runs.push({ compact: t1 - t0, prune: t2 - t1, summary: t3 - t2 });
      last = {
        level: compacted.level,
        after: compacted.tokensAfter,
        pruned: estimateTokens(messagesOf(pruned.kept)),
        kept: pruned.kept.length,
      };
      expect(validatePairing(messagesOf(pruned.kept))).toEqual([]);
    }
    const median = (k: "compact" | "prune" | "summary"): string =>
      runs
        .map((r) => r[k])
        .sort((a, b) => a - b)[3]!
        .toFixed(1);
    console.log(
      `[measure] ${history.length} messages, ~${tokens} tokens: compactProgressive ${median("compact")} ms ` +
        `(level ${last?.level}%, ${last?.after} tokens), pruneTurns ${median("prune")} ms (${last?.kept} messages, ${last?.pruned} tokens), ` +
        `summarizeMechanically ${median("summary")} ms — median of 7`,
    );

    // The full path when removal is not enough (target below what 100% removal reaches).
    const times: number[] = [];
    let plan: ReturnType<typeof planCompaction> | undefined;
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      plan = planCompaction(stored, { compactAt: 40_000, keepTurns: 4 });
      times.push(performance.now() - t0);
    }
    expect(validatePairing(messagesOf(plan!.kept))).toEqual([]);
    console.log(
      `[measure] planCompaction (all levels, then pruning) ${times.sort((a, b) => a - b)[3]!.toFixed(1)} ms: ` +
        `${plan!.strategy}, ${plan!.tokensBefore} → ${plan!.tokensAfter} tokens, ${plan!.dropped.length} messages dropped — median of 7`,
    );
  });
});
