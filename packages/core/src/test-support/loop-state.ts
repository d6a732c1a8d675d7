import type { Hat } from "../hats/hat.js";
import { sessionState, type LoopState } from "../state/loop-state.js";
import { memoryStore } from "../store/memory-store.js";
import type { SessionRecord, Store } from "../store/port.js";

/** A hat for state tests: every tool, no triggers. */
export function testHat(name: string): Hat {
  return { name, description: name, triggers: [], publishes: [], tools: [], priority: 100, instructions: `You are the ${name}.` };
}

/** A new session's row, as a store creates it (a memory store of its own unless given). */
export async function testSession(
  id: string,
  fields: { hat?: string; contextWindow?: number } = {},
  store: Store = memoryStore(),
): Promise<SessionRecord> {
  return store.sessions.create({
    id,
    task: "t",
    title: "t",
    repoPath: "/r",
    worktreePath: "/r",
    branch: "b",
    baseCommit: "c".repeat(40),
    inPlace: false,
    hat: fields.hat ?? "planner",
    model: "m",
    budgets: { maxIterations: null, maxTokens: null, maxCostUsd: null, maxRuntimeMs: null },
    ...(fields.contextWindow ? { contextWindow: fields.contextWindow } : {}),
  });
}

/** A fresh loop state of `session` (as restore builds for a new session), with the fields given. */
export function loopState(session: SessionRecord, fields: Partial<LoopState> = {}): LoopState {
  return { ...sessionState(session, testHat(session.hat), { nextSeq: 1, checklist: [], runStartedAt: 0, grades: [] }), ...fields };
}
