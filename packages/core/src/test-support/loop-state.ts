import type { Hat } from "../hats/hat.js";
import { initialGuard } from "../state/guard.js";
import { initialHealth } from "../state/health-state.js";
import type { LoopState } from "../state/loop-state.js";
import type { SessionRecord } from "../store/port.js";

/** A hat for state tests: no tools, no triggers. */
export function testHat(name: string): Hat {
  return { name, description: name, triggers: [], publishes: [], tools: [], priority: 100, instructions: `You are the ${name}.` };
}

/** A fresh loop state of `session` (as restore builds for a new session), with the fields given. */
export function loopState(session: SessionRecord, fields: Partial<LoopState> = {}): LoopState {
  return {
    session,
    hat: testHat(session.hat),
    iteration: 0,
    eventIteration: 0,
    live: [],
    nextSeq: 1,
    scratchpad: "",
    checklist: [],
    usage: { ...session.usage },
    costUsd: 0,
    priorRuntimeMs: 0,
    runStartedAt: 0,
    health: initialHealth(),
    hatHistory: [],
    stubbed: new Set(),
    anchor: null,
    contextTokens: 0,
    compactions: 0,
    healthStop: null,
    seenCalls: new Set(),
    notes: [],
    request: { system: [], tools: [] },
    decisions: [],
    openItems: [],
    lastFailure: null,
    instructions: [],
    guard: initialGuard(),
    checkpointTokens: {},
    ...fields,
  };
}
