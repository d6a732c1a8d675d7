// How a run ended, as runLoop returns it and the CLI exits with it.

export type LoopStatus = "completed" | "waiting" | "paused" | "failed" | "stopped";

export interface LoopOutcome {
  status: LoopStatus;
  reason: string;
  /** What the CLI exits with: 0 completed, 1 failed/stopped, 3 budget, 4 waiting for an answer, 130 interrupted. */
  exitCode: 0 | 1 | 3 | 4 | 130;
}
