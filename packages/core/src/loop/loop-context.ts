import type { HatloopConfig } from "../config.js";
import type { Tool } from "../ports/tools.js";
import type { MemoryRecord } from "../store/port.js";
import type { HandoffBuilder } from "../checkpoint/draft.js";
import type { LoopDeps } from "./deps.js";
import type { LoopState } from "../state/loop-state.js";

/** What every step of an iteration works with. */
export interface LoopContext {
  deps: LoopDeps;
  config: HatloopConfig;
  /** Read-only for the steps: the state changes only through the write path (commit.ts). */
  state: Readonly<LoopState>;
  /** Builds the handoff stored with each checkpoint. */
  handoff: HandoffBuilder;
  knownTopics: ReadonlySet<string>;
  toolNames: readonly string[];
  /** The loop's own tools (loop-tools.ts), offered to every hat. */
  loopTools: ReadonlyMap<string, Tool>;
  /** Memories of earlier sessions in this repository, fixed for the run (a stable system prompt). */
  memories: MemoryRecord[];
  /** Someone watches this run's terminal: an agent's question waits for them (see question.ts). */
  interactive: boolean;
  now: () => number;
}
