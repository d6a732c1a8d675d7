import type { LoopEvent } from "@hatloop/core";
import { describe, expect, it } from "vitest";
import { event, NOW, snapshot } from "../test-support/fixtures.js";
import { initialState } from "./initial.js";
import { applyEvent, push } from "./reduce.js";
import type { Snapshot, TuiState } from "./types.js";

// What each loop event does to the TUI's state (store.test.ts checks the same through the store).

function stateAfter(events: LoopEvent[], start: Partial<Snapshot> = {}, maxEntries?: number): TuiState {
  const state = initialState(snapshot(start), NOW);
  events.forEach((e, i) => applyEvent(state, e, NOW + i * 1_000, maxEntries));
  return state;
}

const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 });
const response = (costUsd: number, iteration = 1) =>
  event("model.response", { stopReason: "end_turn", usage: usage(1_000, 500), costUsd, toolCalls: 0, textChars: 10 }, iteration);
const start = (hat: string, iteration = 0) =>
  event(
    "session.start",
    { task: "fix it", hat, branch: "hatloop/x", worktree: "/w", model: "m1", resumed: iteration > 0, maxIterations: 9 },
    iteration,
  );
const entries = (state: TuiState) => state.activity.map((a) => [a.tone, a.text]);

describe("applyEvent", () => {
  it("session.start: the session's facts, running from now, the first hat on the timeline, and its line", () => {
    const state = stateAfter([start("planner")], { hats: [] });
    expect(state).toMatchObject({ task: "fix it", hat: "planner", branch: "hatloop/x", model: "m1", status: "running", runningSince: NOW });
    expect(state.budgets.maxIterations).toBe(9);
    expect(state.hats).toEqual([{ hat: "planner", iteration: 0 }]);
    expect(entries(state)).toEqual([["muted", expect.stringMatching(/^hatloop: starting session 1a2b3c4d as planner/)]]);
    // A resume keeps the timeline it has.
    expect(stateAfter([start("planner"), start("critic", 4)], { hats: [] }).hats).toHaveLength(1);
  });

  it("iteration.start and .end: the iteration, the hat, and one header entry completed with duration, tokens and cost", () => {
    const state = stateAfter([event("iteration.start", { hat: "creator" }, 2), response(0.03, 2)]);
    expect(state).toMatchObject({ iteration: 2, hat: "creator", current: { hat: "creator", tokens: 1_500, costUsd: 0.03 } });
    expect(entries(state)).toEqual([["iteration", "-- iteration 2 · creator -- 1.5k tokens · $0.03"]]);
    applyEvent(state, event("iteration.end", { hat: "creator", durationMs: 4_000 }, 2));
    expect(state.current).toBeNull();
    expect(entries(state)).toEqual([["iteration", "-- iteration 2 · creator -- 4s · 1.5k tokens · $0.03"]]);
  });

  it("model.text streams per iteration; model.response settles it as one text entry without its signals", () => {
    const streaming = stateAfter([
      event("model.text", { text: "Found it.\n" }, 1),
      event("model.text", { text: "SCRATCHPAD:\n## Plan\n" }, 1),
    ]);
    expect(streaming.streaming).toEqual({ iteration: 1, text: "Found it.\nSCRATCHPAD:\n## Plan\n", cut: false });
    expect(stateAfter([event("model.text", { text: "old" }, 1), event("model.text", { text: "new" }, 2)]).streaming?.text).toBe("new");
    applyEvent(streaming, response(0));
    expect(streaming.streaming).toBeNull();
    expect(entries(streaming)).toEqual([["text", "Found it."]]);
    expect(stateAfter([event("model.text", { text: "CHECKLIST_DONE:1\n" }, 1), response(0)]).activity).toEqual([]);
    const long = stateAfter([event("model.text", { text: "z".repeat(2_000) }, 1), response(0)]).activity[0]!;
    expect(long.text).toBe(`${"z".repeat(1_500)}…`);
    expect(long.detail?.body).toHaveLength(2_000);
  });

  it("model.retry voids the streamed text and says so", () => {
    const state = stateAfter([
      event("model.text", { text: "half" }, 1),
      event("model.retry", { attempt: 2, waitMs: 1_500, status: 529, reason: "overloaded" }, 1),
    ]);
    expect(state.streaming).toBeNull();
    expect(entries(state)).toEqual([["warn", "model: retry 2 in 1.5s (529: overloaded)"]]);
  });

  it("hat.change: the hat, the timeline (its last 50 changes), and a hat line", () => {
    const state = stateAfter([event("hat.change", { from: "planner", to: "creator", topic: "plan.complete" }, 2)]);
    expect(state.hat).toBe("creator");
    expect(state.hats).toEqual([
      { hat: "planner", iteration: 0 },
      { hat: "creator", iteration: 2 },
    ]);
    expect(entries(state)).toEqual([["hat", "hat: planner -> creator (plan.complete)"]]);
    const many = Array.from({ length: 60 }, (_, i) => event("hat.change", { from: "a", to: `h${i}`, topic: "t" }, i + 1));
    expect(stateAfter(many).hats).toHaveLength(50);
  });

  it("checklist.set shows the first list whole, then only what changed; signal.checklist updates an item", () => {
    const first = [{ id: "1", description: "reproduce", status: "pending" as const }];
    const state = stateAfter([event("checklist.set", { items: first }, 1)]);
    expect(state.checklist).toEqual([{ id: "1", description: "reproduce", status: "pending", reason: null }]);
    expect(entries(state)).toEqual([["muted", "checklist: 1. reproduce"]]);
    applyEvent(state, event("signal.checklist", { id: "1", status: "failed", reason: "flaky", known: true }, 2));
    expect(state.checklist[0]).toMatchObject({ status: "failed", reason: "flaky" });
    expect(entries(state).at(-1)).toEqual(["error", "checklist 1 failed: flaky"]);
    applyEvent(state, event("checklist.set", { items: first }, 3));
    expect(state.activity).toHaveLength(2);
    applyEvent(state, event("checklist.set", { items: [{ id: "2", description: "inject the clock", status: "pending" }] }, 3));
    expect(entries(state).at(-1)).toEqual(["muted", "   checklist + 2. inject the clock; - 1"]);
  });

  it("signal.scratchpad replaces the scratchpad", () => {
    const state = stateAfter([event("signal.scratchpad", { chars: 7, content: "## Plan" }, 1)]);
    expect(state.scratchpad).toBe("## Plan");
    expect(entries(state)).toEqual([["muted", "scratchpad updated (7 chars)"]]);
  });

  it("usage.total and context events move the counters and the gauge; a gauge line only when the zone changes", () => {
    const state = stateAfter([
      event("usage.total", { usage: usage(10, 20), costUsd: 0.5, contextTokens: 150_000, contextWindow: 200_000 }, 1),
      event("context.gauge", { tokens: 150_000, window: 200_000, percent: 75, zone: "gauge" }, 1),
      event("context.gauge", { tokens: 152_000, window: 200_000, percent: 76, zone: "gauge" }, 2),
      event("context.gauge", { tokens: 170_000, window: 200_000, percent: 85, zone: "warn" }, 3),
    ]);
    expect(state).toMatchObject({ usage: usage(10, 20), costUsd: 0.5, context: { tokens: 170_000, percent: 85, zone: "warn" } });
    expect(state.activity.map((a) => a.tone)).toEqual(["muted", "warn"]);
    applyEvent(
      state,
      event("context.compacted", { strategy: "tool-removal", level: 20, tokensBefore: 170_000, tokensAfter: 30_000, removed: 4 }, 3),
    );
    expect(state.context).toMatchObject({ tokens: 30_000, percent: 15, zone: "green" });
    expect(state.activity.at(-1)?.tone).toBe("warn");
  });

  it("session.status: held by the user or waiting keeps the clock; any other stop adds the time run and stops it", () => {
    const running = { status: "running", runtimeMs: 1_000 } as const;
    const held = stateAfter([event("session.status", { status: "paused", reason: "paused by the user" }, 1)], running);
    expect(held).toMatchObject({ status: "paused", statusReason: "paused by the user", runningSince: NOW, runtimeMs: 1_000 });
    const waiting = stateAfter([event("session.status", { status: "waiting", reason: "Postgres?" }, 1)], running);
    expect(waiting).toMatchObject({ status: "waiting", statusReason: "Postgres?", runningSince: NOW });
    const resumed = stateAfter([event("session.status", { status: "running", reason: null }, 1)], { status: "paused" });
    expect(resumed).toMatchObject({ status: "running", statusReason: null, runningSince: NOW });
    expect(resumed.activity).toEqual([]);
    const stopped = stateAfter([], running);
    applyEvent(stopped, event("session.status", { status: "stopped", reason: "stop" }, 1), NOW + 1_000);
    expect(stopped).toMatchObject({ status: "stopped", statusReason: "stop", runningSince: null, runtimeMs: 2_000 });
  });

  it("session.end stops the clock, with a good line when completed and a warning otherwise", () => {
    const done = stateAfter([event("session.end", { status: "completed", reason: "gates passed", iterations: 3, costUsd: 0.4 }, 3)], {
      status: "running",
    });
    expect(done).toMatchObject({ status: "completed", statusReason: "gates passed", runningSince: null });
    expect(done.activity[0]?.tone).toBe("good");
    const failed = stateAfter([event("session.end", { status: "failed", reason: "model", iterations: 3, costUsd: 0.4 }, 3)]);
    expect(failed.activity[0]?.tone).toBe("warn");
  });

  it.each([
    { event: event("tool.call", { id: "t", name: "read_file", summary: "a.ts" }, 1), tone: "tool" },
    {
      event: event("tool.result", { id: "t", name: "read_file", isError: true, chars: 1, durationMs: 1, preview: "no" }, 1),
      tone: "error",
    },
    {
      event: event("tool.result", { id: "t", name: "read_file", isError: false, chars: 1, durationMs: 1, preview: "ok" }, 1),
      tone: "good",
    },
    { event: event("steer", { text: "go on" }, 1), tone: "you" },
    { event: event("error", { message: "boom", fatal: true }, 1), tone: "error" },
    { event: event("error", { message: "hm", fatal: false }, 1), tone: "warn" },
    { event: event("budget.exceeded", { budget: "iterations", limit: 5, value: 5 }, 1), tone: "warn" },
    { event: event("checkpoint.saved", { seq: 2, reason: "interval", commit: null, contextTokens: 10 }, 1), tone: "muted" },
  ])("$event.type: an entry in the tone $tone", ({ event: e, tone }) => {
    expect(stateAfter([e]).activity.map((a) => a.tone)).toEqual([tone]);
  });

  it("counts every event; model.request, signal.event and signal.acknowledge add nothing else", () => {
    const quiet = [
      event("model.request", { model: "m1", messages: 3, contextTokens: 100 }, 1),
      event("signal.event", { topic: "plan.complete" }, 1),
      event("signal.acknowledge", {}, 1),
    ];
    const state = stateAfter(quiet);
    expect(state.events).toBe(3);
    expect(state.activity).toEqual([]);
  });

  it("keeps at most maxEntries entries, dropping and counting the oldest", () => {
    const state = stateAfter(
      Array.from({ length: 5 }, (_, i) => event("steer", { text: `s${i}` }, 1)),
      {},
      3,
    );
    expect(state.activity.map((a) => a.text)).toEqual(["steering: s2", "steering: s3", "steering: s4"]);
    expect(state.dropped).toBe(2);
    push(state, { id: 99, iteration: 1, tone: "normal", text: "a notice" }, 3);
    expect(state.dropped).toBe(3);
  });
});
