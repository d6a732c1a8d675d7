import { redactedPrefix } from "../redaction/redacted-prefix.js";
import type { HealthKind, HealthNotice, HealthState } from "../state/health-state.js";

// Loop health: notices when the loop spins instead of working, and escalates warn -> hint (a note to
// the model) -> stop, each with a reason code. Thresholds are per kind; a success or real progress
// resets a counter, so legitimate repetition (re-running the tests after an edit) never stops a run.
// Each check is a function of the counters: it returns the next counters with its notices, and the
// loop commits them (a `health-checked` change).

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

export interface HealthCheck {
  health: HealthState;
  notices: HealthNotice[];
}

/** Before a call runs: refuse it when the same call was just made too many times in a row. */
export function checkCall(
  health: HealthState,
  signature: string,
  limits: HealthThresholds = DEFAULT_HEALTH,
): HealthCheck & { refuse: string | null } {
  const s = { ...health };
  s.repeats = s.lastCall === signature ? s.repeats + 1 : 1;
  s.lastCall = signature;
  const r = limits.repetition;
  if (s.repeats >= r.refuse) {
    s.refusals++;
    return {
      health: s,
      notices: [notice("repetition", s.refusals >= r.stop ? "stop" : "hint", `the same tool call was made ${s.repeats} times in a row`)],
      refuse: `Refused: this exact call was made ${s.repeats} times in a row with the same input. Its result will not change; try something different.`,
    };
  }
  return {
    health: s,
    notices:
      s.repeats === r.hint
        ? [notice("repetition", "hint", `the same tool call was made ${s.repeats} times in a row; its result will not change`)]
        : [],
    refuse: null,
  };
}

/** After a call ran: failures in a row, and the same error again and again. */
export function checkResult(health: HealthState, isError: boolean, errorText: string | null, limits = DEFAULT_HEALTH): HealthCheck {
  const s = { ...health };
  const notices: HealthNotice[] = [];
  if (!isError) {
    s.consecutiveFailures = 0;
    return { health: s, notices };
  }
  s.consecutiveFailures++;
  const f = limits.failures;
  const level =
    s.consecutiveFailures >= f.stop ? "stop" : s.consecutiveFailures >= f.hint ? "hint" : s.consecutiveFailures >= f.warn ? "warn" : null;
  if (level) notices.push(notice("consecutive_failures", level, `${s.consecutiveFailures} tool calls failed in a row`));
  const key = errorText === null ? null : redactedPrefix(errorText, 300);
  s.sameErrors = key !== null && key === s.lastError ? s.sameErrors + 1 : 1;
  s.lastError = key;
  const e = limits.sameError;
  if (s.sameErrors >= e.hint)
    notices.push(
      notice(
        "same_error",
        s.sameErrors >= e.stop ? "stop" : "hint",
        `the same error came back ${s.sameErrors} times: ${key?.split("\n")[0]}`,
      ),
    );
  return { health: s, notices };
}

/** After the quality gates ran for task_complete. */
export function checkGate(health: HealthState, passed: boolean, limits = DEFAULT_HEALTH): HealthCheck {
  if (passed) return { health, notices: [] };
  const s = { ...health, qualityBlocks: health.qualityBlocks + 1 };
  const q = limits.qualityBlocks;
  if (s.qualityBlocks >= q.stop)
    return { health: s, notices: [notice("quality_blocks", "stop", `the quality gates blocked completion ${s.qualityBlocks} times`)] };
  if (s.qualityBlocks >= q.hint)
    return {
      health: s,
      notices: [
        notice(
          "quality_blocks",
          "hint",
          `the quality gates blocked completion ${s.qualityBlocks} times; read their output before trying again`,
        ),
      ],
    };
  return { health: s, notices: [] };
}

/**
 * After each model answer. The API's advice after a refusal is to take the refused turn out (the
 * caller archives it); a second one in a row takes out the turn that led to it too; a third stops.
 */
export function checkAnswer(
  health: HealthState,
  refused: boolean,
  why: string,
  limits = DEFAULT_HEALTH,
): HealthCheck & { action: "retry" | "withhold" | "stop" | null } {
  if (!refused) return { health: { ...health, modelRefusals: 0 }, notices: [], action: null };
  const s = { ...health, modelRefusals: health.modelRefusals + 1 };
  const r = limits.refusals;
  const action = s.modelRefusals >= r.stop ? "stop" : s.modelRefusals >= r.withhold ? "withhold" : "retry";
  // Below the stop, the refusal event itself tells the user; a health notice would say it twice.
  return {
    health: s,
    action,
    notices:
      action === "stop" ? [notice("refusals", "stop", `the model's answer was refused ${s.modelRefusals} times in a row (${why})`)] : [],
  };
}

/** At the end of an iteration: progress is a changed file, checklist, hat, scratchpad or a new call. */
export function checkProgress(health: HealthState, progressed: boolean, limits = DEFAULT_HEALTH): HealthCheck {
  if (progressed) return { health: { ...health, idleIterations: 0 }, notices: [] };
  const s = { ...health, idleIterations: health.idleIterations + 1 };
  const p = limits.noProgress;
  const level = s.idleIterations >= p.stop ? "stop" : s.idleIterations >= p.hint ? "hint" : s.idleIterations === p.warn ? "warn" : null;
  return {
    health: s,
    notices: level
      ? [notice("no_progress", level, `${s.idleIterations} iterations without progress (no file, checklist, hat or plan change)`)]
      : [],
  };
}

function notice(kind: HealthKind, level: HealthNotice["level"], message: string): HealthNotice {
  return { kind, level, message };
}
