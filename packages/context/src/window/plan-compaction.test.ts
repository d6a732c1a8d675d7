import { describe, expect, it } from "vitest";
import { MARKERS } from "../markers.js";
import { toolResults, toolResultText, type Message } from "../messages.js";
import { compactProgressive } from "./compact-progressive.js";
import { messagesOf } from "./entry.js";
import { estimateTokens } from "./estimate-tokens.js";
import { filterToolResponses } from "./filter-tool-responses.js";
import { planCompaction } from "./plan-compaction.js";
import { idsOf, keyed } from "./test-support/keyed.js";
import { assistant, syntheticTranscript, use, user } from "./test-support/transcripts.js";
import { splitTurns } from "./turns.js";
import { validatePairing } from "./validate-pairing.js";

// Long assistant prose and big tool inputs survive 100% removal, so only pruning gets these under target.
const history: Message[] = syntheticTranscript({ seed: 13, turns: 12 }).map((m) =>
  m.role === "assistant" && typeof m.content !== "string"
    ? { ...m, content: [...m.content, { type: "text" as const, text: "thinking aloud ".repeat(300) }] }
    : m,
);
const entries = keyed(history);
const newest = splitTurns(history).at(-1)!;

describe("planCompaction", () => {
  it("stops at progressive removal when a level gets under target", () => {
    const compactAt = Math.ceil(estimateTokens(filterToolResponses(history, 50)) / 0.8) + 10;
    const plan = planCompaction(entries, { compactAt });
    const removal = compactProgressive(entries, { compactAt });
    expect(plan.strategy).toBe("removal");
    expect(plan.level).toBe(50);
    expect(plan.kept).toEqual(removal.kept);
    expect(idsOf(removal.kept.map((k) => k.entry))).toEqual(idsOf(entries));
    expect(plan.dropped).toEqual([]);
  });

  it("prunes the history (not the 100% result) when removal is not enough, keeping the newest turn lossless", () => {
    const compactAt = Math.ceil(estimateTokens(history.slice(newest.start)) / 0.8) + 2_000;
    expect(compactProgressive(entries, { compactAt }).underTarget).toBe(false);
    const plan = planCompaction(entries, { compactAt, reserveTokens: 500, frozen: ["toolu_0001"] });
    expect(plan.strategy).toBe("pruning");
    expect(plan.level).toBe(100);
    expect(plan.underTarget).toBe(true);
    expect(plan.tokensAfter).toBeLessThan(plan.targetTokens - 500);
    expect(messagesOf(plan.kept)).toEqual(history.slice(newest.start));
    expect(plan.kept.map((k) => k.entry)).toEqual(entries.slice(newest.start)); // the caller's own entries
    expect(plan.dropped).toEqual(entries.slice(0, newest.start));
    expect(plan.frozen).toEqual([]); // nothing stubbed survives in the kept turn
    expect(validatePairing(messagesOf(plan.kept))).toEqual([]);
  });

  it("keeps frozen stubs that survive pruning frozen", () => {
    const frozenId = toolResults(history[newest.start + 2]!)[0]!.tool_use_id;
    const compactAt = Math.ceil(estimateTokens(history.slice(newest.start)) / 0.8) + 2_000;
    const plan = planCompaction(entries, { compactAt, frozen: [frozenId] });
    expect(plan.frozen).toEqual([frozenId]);
    const block = messagesOf(plan.kept)
      .flatMap(toolResults)
      .find((r) => r.tool_use_id === frozenId)!;
    expect(toolResultText(block).startsWith(MARKERS.removedResult)).toBe(true);
  });

  it("reports underTarget false when even the newest step does not fit", () => {
    const huge: Message[] = [user("go"), assistant(use("w", "write_file", { path: "a", content: "c".repeat(100_000) }))];
    const plan = planCompaction(keyed([...huge, { role: "user", content: [{ type: "tool_result", tool_use_id: "w", content: "ok" }] }]), {
      compactAt: 1_000,
    });
    expect(plan.strategy).toBe("pruning");
    expect(plan.underTarget).toBe(false);
    expect(validatePairing(messagesOf(plan.kept))).toEqual([]);
  });
});

describe("planCompaction with a stub bound", () => {
  it("prunes old turns instead of stubbing more once the live context carries enough stubs", () => {
    const history: Message[] = [{ role: "user", content: "the task" }];
    for (let i = 0; i < 30; i++) {
      history.push({
        role: "assistant",
        content: [
          { type: "text", text: `step ${i}` },
          { type: "tool_use", id: `t${i}`, name: "read_file", input: { path: `f${i}` } },
        ],
      });
      history.push({
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: `t${i}`, content: "x".repeat(2_000) },
          { type: "text", text: `[hatloop] Iteration ${i + 1}.` },
        ],
      });
    }
    const compactAt = Math.floor(estimateTokens(history) * 0.95);
    const unbounded = planCompaction(keyed(history), { compactAt });
    const bounded = planCompaction(keyed(history), { compactAt, maxStubs: 5 });
    expect(unbounded.strategy).toBe("removal");
    expect(bounded.strategy).toBe("pruning");
    expect(bounded.kept.length).toBeLessThan(unbounded.kept.length);
    expect(bounded.tokensAfter).toBeLessThan(unbounded.tokensAfter);
  });
});
