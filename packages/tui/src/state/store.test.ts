import { describe, expect, it, vi } from "vitest";
import { initialState } from "./initial.js";
import { createTuiStore } from "./store.js";
import { event, NOW, snapshot } from "../test-support/fixtures.js";

describe("TUI store", () => {
  it("tells the view once per frame however many events arrive", () => {
    // The frame is the store's own timer: the test moves the clock instead of sleeping past it.
    vi.useFakeTimers();
    try {
      const store = createTuiStore(initialState(snapshot(), NOW), { frameMs: 30 });
      let renders = 0;
      store.subscribe(() => renders++);
      for (let i = 0; i < 2_000; i++) store.push(event("model.text", { text: "x" }, 1));
      // Streamed text alone: a frame every two frame times.
      vi.advanceTimersByTime(59);
      expect(renders).toBe(0);
      vi.advanceTimersByTime(1);
      expect(renders).toBe(1);
      vi.runAllTimers(); // nothing more is scheduled: one frame for the 2,000 events
      expect(renders).toBe(1);
      expect(store.getState().streaming?.text.length).toBe(2_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it("draws anything but streamed text within one frame time, even with a text frame pending", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    try {
      const store = createTuiStore(initialState(snapshot(), NOW), { frameMs: 30 });
      let renders = 0;
      store.subscribe(() => renders++);
      store.push(event("model.text", { text: "x" }, 1));
      vi.advanceTimersByTime(10);
      store.push(event("tool.call", { id: "t1", name: "read_file", summary: "a" }, 1));
      vi.advanceTimersByTime(29);
      expect(renders).toBe(0);
      vi.advanceTimersByTime(1);
      expect(renders).toBe(1);
      // Text after that frame waits its own, longer, time again.
      store.push(event("model.text", { text: "y" }, 1));
      vi.advanceTimersByTime(59);
      expect(renders).toBe(1);
      vi.advanceTimersByTime(1);
      expect(renders).toBe(2);
      vi.runAllTimers();
      expect(renders).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps a response's streamed text, bounded, and voids it on a retry", () => {
    const store = createTuiStore(initialState(snapshot(), NOW), { frameMs: 0 });
    store.push(event("model.text", { text: "y".repeat(40_000) }, 1));
    expect(store.getState().streaming).toMatchObject({ cut: true });
    expect(store.getState().streaming?.text.length).toBe(16_000);
    store.push(event("model.retry", { attempt: 1, waitMs: 10, status: 529, reason: "overloaded" }, 1));
    expect(store.getState().streaming).toBeNull();
    expect(store.getState().activity.map((a) => a.tone)).toEqual(["warn"]);
    store.push(event("model.text", { text: "the real answer" }, 1));
    store.push(
      event(
        "model.response",
        {
          stopReason: "end_turn",
          usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
          costUsd: 0,
          toolCalls: 0,
          textChars: 15,
        },
        1,
      ),
    );
    expect(store.getState().activity.at(-1)).toMatchObject({ tone: "text", text: "the real answer" });
  });

  it("keeps the run's clock going while the user holds it (as the runtime budget and show do), and stops it at the end", () => {
    let now = NOW;
    const store = createTuiStore(initialState(snapshot({ status: "running", runtimeMs: 1_000 }), NOW), { frameMs: 0, now: () => now });
    now += 5_000;
    store.push(event("session.status", { status: "paused", reason: "paused by the user" }, 1));
    expect(store.getState()).toMatchObject({ status: "paused", runtimeMs: 1_000, runningSince: NOW });
    now += 60_000;
    store.push(event("session.status", { status: "running", reason: "continued by the user" }, 1));
    expect(store.getState()).toMatchObject({ status: "running", runningSince: NOW });
    now += 1_000;
    store.push(event("session.end", { status: "paused", reason: "budget:iterations", iterations: 3, costUsd: 0 }, 3));
    expect(store.getState()).toMatchObject({ status: "paused", runtimeMs: 67_000, runningSince: null });
  });

  it("moves the gauge at once on a compaction", () => {
    const store = createTuiStore(initialState(snapshot({ contextTokens: 185_000 }), NOW), { frameMs: 0 });
    store.push(
      event("context.compacted", { strategy: "tool-removal", level: 50, tokensBefore: 185_000, tokensAfter: 90_000, removed: 12 }, 4),
    );
    expect(store.getState().context).toMatchObject({ tokens: 90_000, percent: 45, zone: "green" });
  });

  it("says on a compaction's line why the mechanical summary stood in for the model's", () => {
    const store = createTuiStore(initialState(snapshot({ contextTokens: 185_000 }), NOW), { frameMs: 0 });
    const compacted = { strategy: "pruning+mechanical-summary", level: 2, tokensBefore: 185_000, tokensAfter: 60_000, removed: 30 };
    store.push(event("context.compacted", { ...compacted, summaryFallback: "overloaded_error: Overloaded" }, 4));
    expect(store.getState().activity.at(-1)).toMatchObject({
      tone: "warn",
      text: "context compacted (pruning+mechanical-summary, level 2): 185k -> 60k tokens, 30 removed (mechanical summary: overloaded_error: Overloaded)",
    });
  });

  it("draws the hat timeline from the session's first hat, also when it starts empty (watch, resume)", () => {
    const store = createTuiStore(initialState({ ...snapshot({ hat: "critic", iteration: 9 }), hats: [] }, NOW), { frameMs: 0 });
    store.push(
      event(
        "session.start",
        { task: "t", hat: "planner", branch: "b", worktree: "/w", model: "m", resumed: false, maxIterations: null },
        0,
      ),
    );
    store.push(event("hat.change", { from: "planner", to: "creator", topic: "plan.complete" }, 2));
    store.push(
      event("session.start", { task: "t", hat: "creator", branch: "b", worktree: "/w", model: "m", resumed: true, maxIterations: null }, 5),
    );
    expect(store.getState().hats).toEqual([
      { hat: "planner", iteration: 0 },
      { hat: "creator", iteration: 2 },
    ]);
  });

  it("gives each iteration a header with its hat, duration, tokens and cost", () => {
    const store = createTuiStore(initialState(snapshot(), NOW), { frameMs: 0 });
    store.push(event("iteration.start", { hat: "creator" }, 3));
    store.push(
      event(
        "model.response",
        {
          stopReason: "end_turn",
          usage: { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 40000, cacheWriteTokens: 0 },
          costUsd: 0.02,
          toolCalls: 0,
          textChars: 1,
        },
        3,
      ),
    );
    store.push(event("iteration.end", { hat: "creator", durationMs: 12_000 }, 3));
    expect(store.getState().activity[0]).toMatchObject({ tone: "iteration", text: "-- iteration 3 · creator -- 12s · 41k tokens · $0.02" });
  });

  it("renders signals once, as signals: no raw SCRATCHPAD or CHECKLIST lines, and a later checklist shows only its change", () => {
    const store = createTuiStore(initialState(snapshot(), NOW), { frameMs: 0 });
    const items = [{ id: "1", description: "reproduce", status: "pending" as const }];
    store.push(event("checklist.set", { items }, 1));
    store.push(event("model.text", { text: "Reproduced it.\nCHECKLIST_DONE:1\nSCRATCHPAD:\n## Plan\n- inject the clock\n" }, 1));
    store.push(
      event(
        "model.response",
        {
          stopReason: "end_turn",
          usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
          costUsd: 0,
          toolCalls: 0,
          textChars: 50,
        },
        1,
      ),
    );
    store.push(event("checklist.set", { items: [...items, { id: "2", description: "inject the clock", status: "pending" }] }, 2));
    const texts = store.getState().activity.map((a) => a.text);
    expect(texts).toContain("Reproduced it.");
    expect(texts.join("\n")).not.toMatch(/SCRATCHPAD:|CHECKLIST_DONE|inject the clock\n|## Plan/);
    expect(texts.at(-1)).toBe("   checklist + 2. inject the clock");
  });

  it("shows a grading as one line, its tone by the outcome, and every verdict with its reason when opened", () => {
    const store = createTuiStore(initialState(snapshot(), NOW), { frameMs: 0 });
    const usage = { inputTokens: 900, outputTokens: 80, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const verdicts = [
      { criterion: "the guide names every flag", met: true, reason: "UPGRADE.md lists them" },
      { criterion: "each change has an example", met: false, reason: "no example for --legacy" },
    ];
    const base = { round: 1, satisfied: false, verdicts, revisions: 1, maxRevisions: 3, model: "claude-haiku-4-5", usage, costUsd: 0.0012 };
    store.push(event("grader.start", { round: 1, criteria: 2, model: "claude-haiku-4-5" }, 4));
    store.push(event("grader.verdict", { ...base, action: "revise" }, 4));
    store.push(event("grader.verdict", { ...base, round: 2, revisions: 4, action: "stop" }, 9));
    const [start, revise, stop] = store.getState().activity;
    expect(start?.text).toBe("grading 2 acceptance criteria (round 1, claude-haiku-4-5)");
    expect(revise).toMatchObject({
      tone: "warn",
      text: "grader: 1/2 criteria met => revision 1 of 3; unmet: each change has an example (no example for --legacy)",
    });
    expect(revise?.detail).toEqual({
      title: "grader · round 1 · revision 1 of 3 · iteration 4",
      body: "✓ the guide names every flag\n  UPGRADE.md lists them\n\n✗ each change has an example\n  no example for --legacy\n\n(claude-haiku-4-5, $0.0012)",
    });
    expect(stop).toMatchObject({ tone: "error", text: expect.stringContaining("revisions used up: stopping") as string });
  });

  it("keeps what opening an entry shows, and where the rest of it is stored", () => {
    const store = createTuiStore(initialState(snapshot(), NOW), { frameMs: 0 });
    store.push(event("tool.call", { id: "tu_1", name: "read_file", summary: "src/a.ts" }, 2));
    store.push(event("tool.result", { id: "tu_1", name: "read_file", isError: false, chars: 5000, durationMs: 3, preview: "export" }, 2));
    const check = { command: "npm test", exitCode: 1, passed: false, acceptable: false, timedOut: false, durationMs: 900 };
    store.push(event("gate.result", { passed: false, checks: [{ name: "test", ...check, newFailures: ["auth.test.ts"] }] }, 2));
    store.push(event("error", { message: "a long message\nwith its second line", fatal: false }, 2));
    store.push(event("model.text", { text: "x".repeat(20_000) }, 2));
    store.push(
      event(
        "model.response",
        {
          stopReason: "end_turn",
          usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
          costUsd: 0,
          toolCalls: 0,
          textChars: 20_000,
        },
        2,
      ),
    );
    const [call, result, gate, error, text] = store.getState().activity.map((a) => a.detail);
    expect(call).toEqual({
      title: "tool call · read_file · iteration 2",
      body: "read_file src/a.ts",
      ref: { kind: "tool", toolId: "tu_1", iteration: 2 },
    });
    expect(result).toMatchObject({ title: "tool result · read_file · 5000 chars · iteration 2", ref: { kind: "tool", toolId: "tu_1" } });
    expect(gate).toMatchObject({ title: "quality gates · blocked · iteration 2", ref: { kind: "gate", iteration: 2 } });
    expect(gate?.body).toBe("test: FAILED (exit 1, 900 ms)\n$ npm test\n  auth.test.ts");
    expect(error).toEqual({ title: "warning · iteration 2", body: "a long message\nwith its second line" });
    expect(text).toMatchObject({ title: "model text · iteration 2", ref: { kind: "text", iteration: 2 } });
    expect(text?.body.length).toBe(16_000);
    expect(store.getState().activity.at(-1)?.text.length).toBeLessThan(2_000);
  });
});
