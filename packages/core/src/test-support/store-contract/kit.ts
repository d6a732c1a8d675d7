import { randomUUID } from "node:crypto";
import type { NewCheckpoint, NewMessage, NewSession, Store } from "../../store/port.js";

// What every part of the store contract shares: the store under test and the fixtures.

export interface StoreUnderTest {
  /** The store, opened once for the whole contract. */
  readonly store: Store;
  /** Creates a session (a fixture, with overrides) and returns its id. */
  session(overrides?: Partial<NewSession>): Promise<string>;
}

export function newSession(overrides: Partial<NewSession> = {}): NewSession {
  const id = overrides.id ?? randomUUID();
  return {
    id,
    task: "make the flaky auth test deterministic",
    title: "flaky auth test",
    repoPath: "/repo",
    worktreePath: `/repo/.worktrees/${id.slice(0, 8)}`,
    branch: `hatloop/${id.slice(0, 8)}`,
    baseCommit: "a".repeat(40),
    inPlace: false,
    hat: "planner",
    model: "claude-sonnet-4-5",
    budgets: { maxIterations: 50, maxTokens: null, maxCostUsd: 5, maxRuntimeMs: 3_600_000 },
    ...overrides,
  };
}

export function newCheckpoint(overrides: Partial<NewCheckpoint> = {}): NewCheckpoint {
  return {
    reason: "interval",
    iteration: 5,
    hat: "creator",
    scratchpad: "## Current Plan\n1. [x] explore",
    context: { ranges: [[1, 10]], stubbed: ["toolu_1"] },
    contextTokens: 12_000,
    lastError: null,
    failedAt: null,
    recoveryHint: null,
    usage: { inputTokens: 100 },
    state: { checklist: [] },
    handoff: { task_title: "t" },
    gitCommit: "b".repeat(40),
    ...overrides,
  };
}

export const said = (seq: number, text: string, kind: NewMessage["kind"] = "conversation"): NewMessage => ({
  seq,
  iteration: 1,
  hat: "creator",
  kind,
  message: { role: "assistant", content: [{ type: "text", text }] },
  tokenEstimate: 1,
});
export const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
