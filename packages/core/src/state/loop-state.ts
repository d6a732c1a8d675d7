import type { DecisionRecord } from "@hatloop/context";
import type { Hat } from "../hats/hat.js";
import type { ToolSpec } from "../ports/model.js";
import type { CheckpointReason, ChecklistItem, GradeRecord, SessionRecord, Usage } from "../store/port.js";
import { initialGuard, type GuardState } from "./guard.js";
import { initialHealth, type HealthState } from "./health-state.js";
import type { LiveEntry } from "./live-entry.js";

// Everything the loop carries between iterations. Checkpoints store this state (with the live
// context as references into the stored messages) and resume rebuilds it (loop/restore.ts). Only
// apply (state/apply.ts) writes it, called by the loop's write path (loop/commit.ts): the steps of
// an iteration hand over what they did as a Change, so every field has one writer.

/** The person's messages kept for compactions and the handoff (a compaction keeps them all, the oldest shortened: personWords). */
export const MAX_INSTRUCTIONS = 200;

export interface LoopState {
  session: SessionRecord;
  hat: Hat;
  iteration: number;
  /** The iteration events are stamped with: the last one started, also when it was abandoned (not counted). */
  eventIteration: number;
  live: LiveEntry[];
  nextSeq: number;
  scratchpad: string;
  checklist: ChecklistItem[];
  usage: Usage;
  costUsd: number;
  /** Runtime of earlier runs of this session; this run's time is added from `runStartedAt`. */
  priorRuntimeMs: number;
  runStartedAt: number;
  health: HealthState;
  hatHistory: Array<{ hat: string; iteration: number; topic: string }>;
  stubbed: Set<string>;
  anchor: { usage: Usage; entries: number } | null;
  /** The next request's size as last known (see contextTokensAfter in apply.ts: one formula). */
  contextTokens: number;
  compactions: number;
  /** A health check asked to stop; the run ends before the next iteration. */
  healthStop: string | null;
  /** Call signatures seen this session: a new one counts as progress. */
  seenCalls: Set<string>;
  /** The system prompt and tools of the current hat's requests (for measuring the context). */
  request: { system: string[]; tools: ToolSpec[] };
  /** What the user said after the task (steering), oldest first: pinned through compactions. */
  instructions: string[];
  /** Running decisions and open items, carried from handoff to handoff across compactions. */
  decisions: DecisionRecord[];
  openItems: string[];
  /** The newest failing tool result's failure line, carried like the decisions. */
  lastFailure: string | null;
  /** Notes for the next user message: hints, feedback on signals, routing, steering. */
  notes: string[];
  /** What context management remembers between calls. */
  guard: GuardState;
  /** The context size at the last routine checkpoint of each kind (a repeat that barely moved is skipped). */
  checkpointTokens: Partial<Record<CheckpointReason, number>>;
  /** The grader's judgements of the acceptance criteria, oldest first, as stored (its own table, read again on resume). */
  grades: GradeRecord[];
}

/** The part of LoopState a checkpoint keeps besides scratchpad and context references. */
export interface SavedLoopState {
  version: 1;
  checklist: ChecklistItem[];
  health: HealthState;
  hatHistory: LoopState["hatHistory"];
  stubbed: string[];
  anchor: LoopState["anchor"];
  nextSeq: number;
  compactions: number;
  notes: string[];
  decisions: DecisionRecord[];
  openItems: string[];
  lastFailure?: string | null;
  instructions: string[];
  /** Absent in checkpoints written before the guard was part of the state. */
  guard?: GuardState;
  checkpointTokens?: LoopState["checkpointTokens"];
}

/**
 * The loop state of a session as its row says, before any checkpoint is restored into it: what a new
 * session starts with, and what restore (loop/restore.ts) fills in from the newest checkpoint.
 */
export function sessionState(
  session: SessionRecord,
  hat: Hat,
  run: Pick<LoopState, "nextSeq" | "checklist" | "runStartedAt" | "grades">,
): LoopState {
  return {
    session,
    hat,
    iteration: session.iteration,
    eventIteration: session.iteration,
    live: [],
    scratchpad: session.scratchpad,
    usage: { ...session.usage },
    costUsd: session.costUsd,
    priorRuntimeMs: session.runtimeMs,
    health: initialHealth(),
    hatHistory: [],
    stubbed: new Set(),
    anchor: null,
    contextTokens: session.contextTokens,
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
    ...run,
  };
}

/** A prompt's size as the API reports it: input plus cache read plus cache write. */
export function promptTokens(usage: Pick<Usage, "inputTokens" | "cacheReadTokens" | "cacheWriteTokens">): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

/** Gradings that sent the work back: the revisions the session has had. */
export function revisionsOf(grades: readonly GradeRecord[]): number {
  return grades.filter((g) => !g.satisfied).length;
}

export function totalTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

export function runtimeMs(state: Readonly<LoopState>, now: number): number {
  return state.priorRuntimeMs + (now - state.runStartedAt);
}
