import type { HatloopConfig } from "../config.js";
import type { MemoryRecord } from "../store/port.js";
import type { Checkpointer } from "../checkpoint/checkpointer.js";
import type { LoopDeps } from "./deps.js";
import type { Emitter } from "./emitter.js";
import type { LoopHealth } from "./health.js";
import type { LoopState } from "./state.js";

/** What every step of an iteration works with. */
export interface LoopContext {
  deps: LoopDeps;
  config: HatloopConfig;
  /** Read-only here: the state changes only through apply() (apply.ts). */
  state: Readonly<LoopState>;
  emitter: Emitter;
  health: LoopHealth;
  checkpointer: Checkpointer;
  knownTopics: ReadonlySet<string>;
  toolNames: readonly string[];
  /** Memories of earlier sessions in this repository, fixed for the run (a stable system prompt). */
  memories: MemoryRecord[];
  /** Someone watches this run's terminal: an agent's question waits for them (see question.ts). */
  interactive: boolean;
  now(): number;
}
