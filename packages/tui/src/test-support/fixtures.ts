import type { EventData, LoopEvent, LoopEventType } from "@hatloop/core";
import { initialState } from "../state/initial.js";
import { createTuiStore, type TuiStore } from "../state/store.js";
import type { Snapshot } from "../state/types.js";

export const NOW = Date.parse("2026-11-23T12:00:00Z");

export function snapshot(overrides: Partial<Snapshot> = {}): Snapshot {
  return {
    id: "1a2b3c4d-0000-0000-0000-000000000000",
    task: "make the flaky auth test deterministic",
    branch: "hatloop/1a2b3c4d",
    model: "claude-sonnet-5-5",
    hat: "planner",
    iteration: 0,
    status: "starting",
    stopReason: null,
    runtimeMs: 0,
    contextTokens: 0,
    contextWindow: 200_000,
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0,
    budgets: { maxIterations: 50, maxTokens: null, maxCostUsd: 5, maxRuntimeMs: null },
    scratchpad: "",
    ...overrides,
  };
}

export function event<K extends LoopEventType>(type: K, data: EventData<K>, iteration = 1): LoopEvent {
  return { sessionId: "1a2b3c4d-0000-0000-0000-000000000000", iteration, ts: NOW, type, data } as LoopEvent;
}

/** A session some way in: hats, checklist, scratchpad, tools, text, a warn zone, usage. */
export function busyStore(extra: LoopEvent[] = []): TuiStore {
  const store = createTuiStore(initialState(snapshot(), NOW), { frameMs: 0, now: () => NOW });
  const events: LoopEvent[] = [
    event(
      "session.start",
      {
        task: "make the flaky auth test deterministic",
        hat: "planner",
        branch: "hatloop/1a2b3c4d",
        worktree: "/w",
        model: "claude-sonnet-5-5",
        resumed: false,
        maxIterations: 50,
      },
      0,
    ),
    event("session.status", { status: "running", reason: null }, 0),
    event("iteration.start", { hat: "planner" }, 1),
    event(
      "checklist.set",
      {
        items: [
          { id: "1", description: "test reproduces the flake", status: "pending" },
          { id: "2", description: "clock is injected", status: "pending" },
        ],
      },
      1,
    ),
    event(
      "signal.scratchpad",
      { chars: 60, content: "## Current Plan\n1. [ ] reproduce\n2. [ ] inject the clock\n## Key Decisions\n- fake timers" },
      1,
    ),
    event("hat.change", { from: "planner", to: "creator", topic: "plan.complete" }, 2),
    event("iteration.start", { hat: "creator" }, 3),
    event("tool.call", { id: "t1", name: "run_command", summary: "npm test" }, 3),
    event(
      "tool.result",
      { id: "t1", name: "run_command", isError: true, chars: 1200, durationMs: 2100, preview: "FAIL src/auth.test.ts" },
      3,
    ),
    event("model.text", { text: "The test fails because of real timers.\nCHECKLIST_DONE:1\n" }, 3),
    event(
      "model.response",
      {
        stopReason: "end_turn",
        usage: { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 90000, cacheWriteTokens: 4000 },
        costUsd: 0.05,
        toolCalls: 0,
        textChars: 57,
      },
      3,
    ),
    event("signal.checklist", { id: "1", status: "done", reason: null, known: true }, 3),
    event("context.gauge", { tokens: 162_000, window: 200_000, percent: 81, zone: "warn" }, 3),
    event(
      "usage.total",
      {
        usage: { inputTokens: 12000, outputTokens: 3000, cacheReadTokens: 100000, cacheWriteTokens: 8000 },
        costUsd: 0.42,
        contextTokens: 162_000,
        contextWindow: 200_000,
      },
      3,
    ),
    ...extra,
  ];
  events.forEach((e) => store.push(e));
  return store;
}
