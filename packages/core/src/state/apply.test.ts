import { describe, expect, it } from "vitest";
import type { Message } from "@hatloop/context";
import type { NewCheckpoint, Usage } from "../store/port.js";
import { loopState, testHat, testSession } from "../test-support/loop-state.js";
import { apply } from "./apply.js";
import type { Compaction } from "./context-hook.js";
import { initialGuard } from "./guard.js";
import type { LiveEntry, StoredEntry } from "./live-entry.js";
import { MAX_INSTRUCTIONS } from "./loop-state.js";

// The reducer alone: what each change does to the loop state, given the messages it brought as stored.

const session = () => testSession("s-apply", { contextWindow: 100_000 });

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const stored = (seq: number, text: string, kind: StoredEntry["kind"] = "conversation"): StoredEntry => ({ seq, message: user(text), kind });
const usage = (input: number, output = 0): Usage => ({ inputTokens: input, outputTokens: output, cacheReadTokens: 0, cacheWriteTokens: 0 });

describe("apply", () => {
  it("counts iterations; an abandoned one is not counted but events keep its number", async () => {
    const state = loopState(await session());
    apply(state, { type: "iteration-started" }, []);
    apply(state, { type: "iteration-started" }, []);
    apply(state, { type: "iteration-abandoned" }, []);
    expect([state.iteration, state.eventIteration]).toEqual([1, 2]);
  });

  it("puts a change's messages into the live context as stored, and moves the next seq past them", async () => {
    const state = loopState(await session(), { nextSeq: 7 });
    apply(state, { type: "appended", message: user("with a secret sk-ant-x"), kind: "injected" }, [
      stored(7, "with a secret [REDACTED]", "injected"),
    ]);
    apply(state, { type: "archived", message: user("refused") }, [stored(8, "refused", "archived")]);
    expect(state.live).toEqual([{ seq: 7, message: user("with a secret [REDACTED]"), kind: "injected" }]);
    expect(state.nextSeq).toBe(9);
  });

  it("takes an answer's usage as the anchor, and the checklist it streamed", async () => {
    const state = loopState(await session(), { live: [{ seq: 1, message: user("task"), kind: "conversation" }], nextSeq: 2 });
    const item = { id: "1", description: "one", status: "pending" as const, reason: null };
    const response = {
      message: { role: "assistant" as const, content: "ok" },
      stopReason: "end_turn" as const,
      usage: usage(900, 100),
      costUsd: 0.5,
      model: "m",
    };
    apply(state, { type: "answered", response, steps: [], checklist: [item] }, [
      { seq: 2, message: response.message, kind: "conversation" },
    ]);
    expect(state.anchor).toEqual({ usage: usage(900, 100), entries: 1 });
    expect(state.contextTokens).toBe(1_000);
    expect(state.checklist).toEqual([item]);
    apply(state, { type: "paid", usage: usage(900, 100), costUsd: 0.5 }, []);
    expect([state.usage.inputTokens, state.costUsd]).toEqual([900, 0.5]);
  });

  it("replaces the live context with a compaction's, its new entries as stored, and pays for its summary", async () => {
    const kept: LiveEntry = { seq: 3, message: user("kept"), kind: "conversation" };
    const state = loopState(await session(), { live: [kept], nextSeq: 10, anchor: { usage: usage(5), entries: 1 } });
    const compaction: Compaction = {
      live: [{ seq: null, message: user("summary"), kind: "injected" }, kept, { seq: null, message: user("cut"), kind: "injected" }],
      stubbed: new Set(["t1"]),
      strategy: "pruning+mechanical-summary",
      level: 50,
      removed: 4,
      tokensBefore: 9_000,
      tokensAfter: 3_000,
      summary: "s",
      cost: { usage: usage(2_000), costUsd: 0.25 },
    };
    const guard = { ...initialGuard(), lastTokens: 3_000 };
    apply(state, { type: "compacted", compaction, scratchpad: "pad", guard }, [
      stored(10, "summary", "injected"),
      stored(11, "cut", "injected"),
    ]);
    expect(state.live.map((e) => e.seq)).toEqual([10, 3, 11]);
    expect(state.live[1]).toBe(kept);
    expect([state.nextSeq, state.anchor, state.contextTokens, state.compactions, state.costUsd]).toEqual([12, null, 3_000, 1, 0.25]);
    expect([state.scratchpad, state.guard, [...state.stubbed]]).toEqual(["pad", guard, ["t1"]]);
    expect(state.notes[0]).toContain("Context compacted (pruning+mechanical-summary)");
  });

  it("stubs the results a refusal withheld", async () => {
    const results: LiveEntry = {
      seq: 2,
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }] },
      kind: "conversation",
    };
    const state = loopState(await session(), { live: [{ seq: 1, message: user("task"), kind: "conversation" }, results], nextSeq: 4 });
    apply(state, { type: "refused", usage: usage(10), withheld: [{ index: 1, message: user("stub"), ids: ["t1"] }] }, [
      stored(4, "stub", "injected"),
    ]);
    expect(state.live[1]).toEqual({ seq: 4, message: user("stub"), kind: "injected" });
    expect([...state.stubbed]).toEqual(["t1"]);
    expect(state.anchor).toEqual({ usage: usage(10), entries: 2 });
  });

  it("tells the model health hints and keeps the first stop", async () => {
    const state = loopState(await session());
    const health = { ...state.health, repeats: 3 };
    apply(state, { type: "health-checked", health, notices: [{ kind: "repetition", level: "hint", message: "again" }] }, []);
    apply(state, { type: "health-checked", health, notices: [{ kind: "no_progress", level: "stop", message: "idle" }] }, []);
    apply(state, { type: "health-checked", health, notices: [{ kind: "refusals", level: "stop", message: "refused" }] }, []);
    expect(state.health).toBe(health);
    expect(state.notes).toEqual([expect.stringContaining("Loop health: again.")]);
    expect(state.healthStop).toBe("no_progress (idle)");
  });

  it("closes a turn: its notes are said, the steering is kept (capped), the measurement and guard taken", async () => {
    const state = loopState(await session(), {
      notes: ["a note"],
      instructions: Array.from({ length: MAX_INSTRUCTIONS }, (_, i) => `i${i}`),
    });
    const measurement = { tokens: 4_321, percent: 4, zone: "green" as const, warnCrossed: false, checkpointSaved: false };
    const guard = { ...initialGuard(), lastTokens: 4_321 };
    apply(state, { type: "turn-closed", message: user("results"), steering: ["go on"], measurement, guard }, [stored(1, "results")]);
    expect(state.notes).toEqual([]);
    expect(state.instructions.length).toBe(MAX_INSTRUCTIONS);
    expect(state.instructions.at(-1)).toBe("go on");
    expect([state.contextTokens, state.guard]).toEqual([4_321, guard]);
  });

  it("changes hat with a bounded history, and carries a checkpoint's handoff and size", async () => {
    const state = loopState(await session());
    for (let i = 0; i < 60; i++)
      apply(state, { type: "routed", to: testHat(i % 2 ? "critic" : "creator"), from: state.hat.name, topic: "t" }, []);
    expect([state.hat.name, state.hatHistory.length]).toEqual(["critic", 50]);
    const carry = { decisions: [{ id: "d1", what: "use X", when: null }], openItems: ["o"], lastFailure: "FAIL a" };
    const row = { contextTokens: 1_234 } as NewCheckpoint;
    apply(state, { type: "checkpointed", reason: "interval", row, carry, retain: 5 }, []);
    expect([state.decisions, state.openItems, state.lastFailure]).toEqual([carry.decisions, ["o"], "FAIL a"]);
    expect(state.checkpointTokens).toEqual({ interval: 1_234 });
  });

  it("takes a smaller window the API names, never a larger one", async () => {
    const state = loopState(await session());
    apply(state, { type: "overflowed", promptTokens: 120_000, maxTokens: 200_000, contextWindow: 200_000, attempt: 1 }, []);
    expect([state.session.contextWindow, state.contextTokens]).toEqual([100_000, 120_000]);
    apply(state, { type: "overflowed", promptTokens: null, maxTokens: 64_000, contextWindow: 64_000, attempt: 2 }, []);
    expect([state.session.contextWindow, state.contextTokens]).toEqual([64_000, 120_000]);
  });
});
