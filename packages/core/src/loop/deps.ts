import type { EventSink } from "../events.js";
import type { Hat } from "../hats/hat.js";
import type { PromptComponents } from "../prompt/components.js";
import type { ModelPort } from "../ports/model.js";
import type { GateReport, Tool } from "../ports/tools.js";
import type { Store } from "../store/port.js";
import type { HatloopConfig } from "../config.js";
import type { LoopControl } from "./control.js";
import type { ContextHook } from "./context-hook.js";
import type { LoopState } from "./state.js";
import type { FailureContext } from "../checkpoint/checkpointer.js";
import type { Message } from "@hatloop/context";

/** Git facts the loop needs; implemented with simple-git by @hatloop/tools. Never from the model. */
export interface GitPort {
  /** Commits everything in the worktree; returns the new HEAD (or the old one if nothing changed). */
  commitAll(dir: string, message: string): Promise<string>;
  headCommit(dir: string): Promise<string>;
  facts(dir: string, baseCommit: string): Promise<GitFacts>;
}

export interface GitFacts {
  branch: string;
  headCommit: string;
  modifiedFiles: string[];
  createdFiles: string[];
  deletedFiles: string[];
  diffstat: { files: number; insertions: number; deletions: number };
  commits: Array<{ sha: string; subject: string }>;
}

export interface GatePort {
  /** Runs the configured or detected gate commands and compares with the session's baseline. */
  run(signal: AbortSignal): Promise<GateReport>;
}

export interface LoopDeps {
  store: Store;
  model: ModelPort;
  tools: Tool[];
  hats: Map<string, Hat>;
  prompts: PromptComponents;
  gates: GatePort;
  git: GitPort;
  control: LoopControl;
  sinks: EventSink[];
  clock?: { now(): number };
  /** Context management (guard, compaction, recall); without it the context is never managed. */
  context?: ContextHook;
  /** Re-applies the stubs of a restored live context (the stub text is derived from the originals). */
  restub?: (messages: Message[], seqs: Array<number | null>, stubbed: ReadonlySet<string>) => Message[];
  /** Builds the handoff stored with each checkpoint; default: the full handoff (checkpoint/handoff.ts). */
  handoff?: (state: LoopState, gitCommit: string | null, failure?: FailureContext) => Promise<unknown>;
}

export interface LoopOptions {
  sessionId: string;
  config: HatloopConfig;
}

export type LoopStatus = "completed" | "paused" | "failed" | "stopped";

export interface LoopOutcome {
  status: LoopStatus;
  reason: string;
  /** What the CLI exits with: 0 completed, 1 failed/stopped, 3 budget, 130 interrupted. */
  exitCode: 0 | 1 | 3 | 130;
}
