// Loop health's counters (kept in the loop state, checkpointed) and the notices its checks give.
// The checks themselves are loop/health.ts.

export type HealthKind = "consecutive_failures" | "repetition" | "quality_blocks" | "no_progress" | "same_error" | "refusals";
type HealthLevel = "warn" | "hint" | "stop";

export interface HealthNotice {
  kind: HealthKind;
  level: HealthLevel;
  message: string;
}

export interface HealthState {
  consecutiveFailures: number;
  lastCall: string | null;
  repeats: number;
  refusals: number;
  qualityBlocks: number;
  idleIterations: number;
  lastError: string | null;
  sameErrors: number;
  /** Model answers refused by the API in a row (stop_reason "refusal"). */
  modelRefusals: number;
}

export function initialHealth(): HealthState {
  return {
    consecutiveFailures: 0,
    lastCall: null,
    repeats: 0,
    refusals: 0,
    qualityBlocks: 0,
    idleIterations: 0,
    lastError: null,
    sameErrors: 0,
    modelRefusals: 0,
  };
}
