import type { GateCheck } from "../shapes.js";
import type { Signal } from "../signals/types.js";
import type { ToolSpec } from "./model.js";

// The tool port. @hatloop/tools implements the agent's tools (files, search, shell, git, quality
// gates, recall); the loop's executor decides which hat may call which tool, caps result sizes and
// detects repetition, so those rules hold for every tool in one place.

export interface ToolResult {
  /** Text for the model. */
  content: string;
  isError: boolean;
  /** Facts for the loop and the UI, never shown to the model. */
  meta?: ToolResultMeta;
}

export interface ToolResultMeta {
  /** Files written or edited, relative to the worktree. */
  changedFiles?: string[];
  /** Set by task_complete: the quality gates passed (the loop still checks the checklist). */
  completion?: { passed: boolean; report: GateReport };
  /** Exit code of run_command. */
  exitCode?: number | null;
  /** Set by the loop's own tools (loop/loop-tools.ts): the signals the call stands for. */
  signals?: Signal[];
  [key: string]: unknown;
}

export type { GateCheck } from "../shapes.js";

export interface GateReport {
  passed: boolean;
  checks: GateCheck[];
}

/** Services the loop lends to tools. */
export interface ToolServices {
  /** Full-text search over this session's stored messages that are no longer in the live context. */
  recall(query: string, limit: number): Promise<Array<{ seq: number; iteration: number; role: string; text: string }>>;
  /** Runs the quality gates against the session's baseline. */
  runGates(): Promise<GateReport>;
}

export interface ToolContext {
  /** Absolute, real path of the task's worktree; every path argument must stay inside it. */
  worktree: string;
  sessionId: string;
  iteration: number;
  hat: string;
  signal: AbortSignal;
  services: ToolServices;
}

export interface Tool {
  spec: ToolSpec;
  run(input: Record<string, unknown>, context: ToolContext): Promise<ToolResult>;
}
