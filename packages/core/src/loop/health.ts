import { redactedPrefix } from "../redaction/redacted-prefix.js";

// Loop health: notices when the loop spins instead of working, and escalates warn -> hint (a note to
// the model) -> stop, each with a reason code. Thresholds are per kind; a success or real progress
// resets a counter, so legitimate repetition (re-running the tests after an edit) never stops a run.

type HealthKind = "consecutive_failures" | "repetition" | "quality_blocks" | "no_progress" | "same_error" | "refusals";
type HealthLevel = "warn" | "hint" | "stop";

export interface HealthNotice {
  kind: HealthKind;
  level: HealthLevel;
  message: string;
}

export interface HealthThresholds {
  failures: { warn: number; hint: number; stop: number };
  /** Identical consecutive calls: hint, then refuse the call; `stop` refusals end the run. */
  repetition: { hint: number; refuse: number; stop: number };
  qualityBlocks: { hint: number; stop: number };
  noProgress: { warn: number; hint: number; stop: number };
  sameError: { hint: number; stop: number };
  /** Answers refused by the API in a row: from `withhold` the turn before goes too; `stop` ends the run. */
  refusals: { withhold: number; stop: number };
}

export const DEFAULT_HEALTH: HealthThresholds = {
  failures: { warn: 3, hint: 4, stop: 8 },
  repetition: { hint: 3, refuse: 5, stop: 3 },
  qualityBlocks: { hint: 3, stop: 6 },
  noProgress: { warn: 6, hint: 8, stop: 15 },
  sameError: { hint: 3, stop: 6 },
  refusals: { withhold: 2, stop: 3 },
};

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

export class LoopHealth {
  /** The counters this object keeps: the loop state's own `health` (the one writer of its fields). */
  constructor(
    readonly state: HealthState = initialHealth(),
    private readonly limits: HealthThresholds = DEFAULT_HEALTH,
  ) {}

  /** Before a call runs: refuse it when the same call was just made too many times in a row. */
  beforeCall(signature: string): { refuse: string | null; notices: HealthNotice[] } {
    const s = this.state;
    s.repeats = s.lastCall === signature ? s.repeats + 1 : 1;
    s.lastCall = signature;
    const r = this.limits.repetition;
    if (s.repeats >= r.refuse) {
      s.refusals++;
      const notices = [
        notice("repetition", s.refusals >= r.stop ? "stop" : "hint", `the same tool call was made ${s.repeats} times in a row`),
      ];
      return {
        refuse: `Refused: this exact call was made ${s.repeats} times in a row with the same input. Its result will not change; try something different.`,
        notices,
      };
    }
    return {
      refuse: null,
      notices:
        s.repeats === r.hint
          ? [notice("repetition", "hint", `the same tool call was made ${s.repeats} times in a row; its result will not change`)]
          : [],
    };
  }

  afterCall(isError: boolean, errorText: string | null): HealthNotice[] {
    const s = this.state;
    const notices: HealthNotice[] = [];
    if (!isError) {
      s.consecutiveFailures = 0;
      return notices;
    }
    s.consecutiveFailures++;
    const f = this.limits.failures;
    const level =
      s.consecutiveFailures >= f.stop ? "stop" : s.consecutiveFailures >= f.hint ? "hint" : s.consecutiveFailures >= f.warn ? "warn" : null;
    if (level) notices.push(notice("consecutive_failures", level, `${s.consecutiveFailures} tool calls failed in a row`));
    const key = errorText === null ? null : redactedPrefix(errorText, 300);
    s.sameErrors = key !== null && key === s.lastError ? s.sameErrors + 1 : 1;
    s.lastError = key;
    const e = this.limits.sameError;
    if (s.sameErrors >= e.hint)
      notices.push(
        notice(
          "same_error",
          s.sameErrors >= e.stop ? "stop" : "hint",
          `the same error came back ${s.sameErrors} times: ${key?.split("\n")[0]}`,
        ),
      );
    return notices;
  }

  afterGate(passed: boolean): HealthNotice[] {
    if (passed) return [];
    const s = this.state;
    s.qualityBlocks++;
    const q = this.limits.qualityBlocks;
    if (s.qualityBlocks >= q.stop)
      return [notice("quality_blocks", "stop", `the quality gates blocked completion ${s.qualityBlocks} times`)];
    if (s.qualityBlocks >= q.hint)
      return [
        notice(
          "quality_blocks",
          "hint",
          `the quality gates blocked completion ${s.qualityBlocks} times; read their output before trying again`,
        ),
      ];
    return [];
  }

  /**
   * After each model answer. The API's advice after a refusal is to take the refused turn out (the
   * caller archives it); a second one in a row takes out the turn that led to it too; a third stops.
   */
  afterAnswer(refused: boolean, why: string): { action: "retry" | "withhold" | "stop" | null; notices: HealthNotice[] } {
    const s = this.state;
    if (!refused) {
      s.modelRefusals = 0;
      return { action: null, notices: [] };
    }
    s.modelRefusals++;
    const r = this.limits.refusals;
    const action = s.modelRefusals >= r.stop ? "stop" : s.modelRefusals >= r.withhold ? "withhold" : "retry";
    // Below the stop, the refusal event itself tells the user; a health notice would say it twice.
    return {
      action,
      notices:
        action === "stop" ? [notice("refusals", "stop", `the model's answer was refused ${s.modelRefusals} times in a row (${why})`)] : [],
    };
  }

  /** At the end of an iteration: progress is a changed file, checklist, hat, scratchpad or a new call. */
  afterIteration(progressed: boolean): HealthNotice[] {
    const s = this.state;
    if (progressed) {
      s.idleIterations = 0;
      return [];
    }
    s.idleIterations++;
    const p = this.limits.noProgress;
    const level = s.idleIterations >= p.stop ? "stop" : s.idleIterations >= p.hint ? "hint" : s.idleIterations === p.warn ? "warn" : null;
    return level
      ? [notice("no_progress", level, `${s.idleIterations} iterations without progress (no file, checklist, hat or plan change)`)]
      : [];
  }
}

function notice(kind: HealthKind, level: HealthLevel, message: string): HealthNotice {
  return { kind, level, message };
}
