import type { EventSink } from "../events.js";
import type { Hat } from "../hats/hat.js";
import type { PromptComponents } from "../prompt/components.js";
import type { GitPort } from "../ports/git.js";
import type { ModelPort } from "../ports/model.js";
import type { GateReport, Tool } from "../ports/tools.js";
import type { Store } from "../store/port.js";
import type { HatloopConfig } from "../config.js";
import type { HandoffBuilder } from "../checkpoint/draft.js";
import type { ContextHook } from "../state/context-hook.js";
import type { LiveEntry } from "../state/live-entry.js";
import type { LoopControl } from "./control.js";

/** What the handoff is built from; defined once in @hatloop/context. */
export type { GitFacts } from "@hatloop/context";
export type { LoopOutcome, LoopStatus } from "../state/outcome.js";

export interface GatePort {
  /** Runs the configured or detected gate commands and compares with the session's baseline. */
  run(signal: AbortSignal): Promise<GateReport>;
}

/** The grader of acceptance criteria (loop/grading.ts); the CLI wires it from prompts/grader.md, git and the config. */
export interface GraderDeps {
  /** Its system prompt. */
  prompt: string;
  /** Its model, in the form the model port takes. */
  model: string;
  /** The worktree's changes against the session's base commit, as a patch. */
  diff(): Promise<string>;
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
  /**
   * Writes the events emitted so far (the event persister's flush). Awaited after each tool call, so
   * that a kill before the turn's closing message is stored still leaves the proof the call finished.
   */
  flushEvents?: () => Promise<void>;
  clock?: { now: () => number };
  /** Context management (guard, compaction, recall); without it the context is never managed. */
  context?: ContextHook;
  /** Re-applies the stubs of a restored live context (the stub text is derived from the originals). */
  restub?: (live: LiveEntry[], stubbed: ReadonlySet<string>) => LiveEntry[];
  /** Builds the handoff stored with each checkpoint; default: the full handoff (checkpoint/handoff.ts). */
  handoff?: HandoffBuilder;
  /** Who runs the session (a fleet worker's name, or host:pid), named by session.start. */
  runner?: string;
  /** Judges a task's acceptance criteria at task_complete; without it they are not graded. */
  grader?: GraderDeps;
}

export interface LoopOptions {
  sessionId: string;
  config: HatloopConfig;
  /** Someone watches this run's terminal (the TUI): the agent's questions wait for an answer. Default: headless. */
  interactive?: boolean;
  /**
   * Said to the model with the resume packet: what the worktree may lack (a fleet worker that took
   * the session over and could not restore all of the previous runner's writes).
   */
  resumeNote?: string;
}
