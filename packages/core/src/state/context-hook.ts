import type { CacheTtl, DecisionRecord } from "@hatloop/context";
import type { ContextOverflow, ToolSpec } from "../ports/model.js";
import type { Usage } from "../store/port.js";
import type { GuardState } from "./guard.js";
import type { LiveEntry } from "./live-entry.js";

// The seam between the loop and context management. The loop owns the live context (what the next
// request sends) and the guard's memory (GuardState); the hook measures the context after each
// iteration and may rewrite it before a model call, handing back what it would change as data: the
// loop's write path stores the compaction and the guard. (What the hook writes itself is the
// repository's knowledge facts, kept across sessions: core/context/facts.ts.)

export interface ContextView {
  sessionId: string;
  iteration: number;
  hat: string;
  model: string;
  contextWindow: number;
  live: readonly LiveEntry[];
  system: readonly string[];
  tools: readonly ToolSpec[];
  /** The last response's prompt size as the API reported it, and how many live entries it covered. */
  anchor: { usage: Usage; entries: number } | null;
  /** tool_use ids whose results are stubbed in the live context (monotone: they stay stubbed). */
  stubbed: ReadonlySet<string>;
  scratchpad: string;
  /** The task as the user wrote it. */
  task: string;
  /** What the user said after the task (steering), oldest first. */
  instructions: readonly string[];
  /** Checklist items not done yet (what recall should look for). */
  openItems: string[];
  /** The running decisions, carried from handoff to handoff. */
  decisions: readonly DecisionRecord[];
  /** The newest failure line, carried from handoff to handoff (null: none seen). */
  lastFailure: string | null;
  /** What the guard remembers from earlier calls. */
  guard: GuardState;
}

export interface Compaction {
  live: LiveEntry[];
  stubbed: Set<string>;
  strategy: string;
  level: number;
  removed: number;
  tokensBefore: number;
  tokensAfter: number;
  /** Appended to the scratchpad's "Compacted History". */
  summary: string | null;
  /** Why the LLM summary was not used when it was asked for (the mechanical one stands in), else absent. */
  summaryFallback?: string;
  /** What the summary and fact-extraction calls cost, added to the session's totals. */
  cost?: { usage: Usage; costUsd: number };
  /** The running decisions with those of the dropped turns merged in, when turns were dropped. */
  decisions?: DecisionRecord[];
  /** The newest failure line when turns were dropped (it may have left with them). */
  lastFailure?: string | null;
}

export interface Measurement {
  tokens: number;
  percent: number;
  zone: "green" | "gauge" | "warn" | "compact";
  /** True once per pressure episode when the warn threshold is crossed: write a checkpoint. */
  warnCrossed: boolean;
  /** A warn-threshold checkpoint exists for the current pressure episode (the gauge says so). */
  checkpointSaved: boolean;
}

export interface ContextHook {
  /**
   * Before the model call: a compaction when the live context must shrink, else null, and the
   * guard's next state either way. With `overflow` (the API said the last request did not fit) it
   * compacts whatever the zones say, taking the API's count as the true size of that request.
   */
  beforeCall(
    view: ContextView,
    signal: AbortSignal,
    overflow?: ContextOverflow,
  ): Promise<{ compaction: Compaction | null; guard: GuardState }>;
  /** After an iteration, with the next request's contents known. */
  measure(view: ContextView): { measurement: Measurement; guard: GuardState };
  /** The one-line gauge shown to the model, or null below the gauge threshold. */
  gaugeLine(measurement: Measurement, contextWindow: number): string | null;
  /** The prompt-cache TTL for the request sent at `now` (after beforeCall). Default 5m. */
  cacheTtl?(now: number, guard: GuardState): { ttl: CacheTtl; guard: GuardState };
}
