import { resolveThresholds, type ZoneConfig } from "./zones.js";

// One pressure episode → exactly one warn checkpoint and one compaction request (docs/design/context-layers.md,
// the pressure latch). Each trigger fires on the upward crossing and re-arms only once tokens fall below its
// threshold minus a hysteresis margin, so hovering around 90% never triggers a compaction per
// iteration — which would also rewrite the cached prefix every time.

export interface LatchConfig extends ZoneConfig {
  /** Re-arm margin in percentage points of the window below each trigger. Default 5. */
  hysteresisPct?: number;
}

export interface LatchState {
  /** Ready to fire the warn checkpoint. */
  warnArmed: boolean;
  /** Ready to fire the compaction request. */
  compactArmed: boolean;
}

interface LatchSignals {
  /** The warn threshold was crossed upward: log a warning and write a warn-threshold checkpoint. */
  warnCheckpoint: boolean;
  /** The compact threshold was crossed upward: run compaction (once). */
  compact: boolean;
}

export interface LatchStep {
  state: LatchState;
  signals: LatchSignals;
}

export const INITIAL_LATCH_STATE: LatchState = { warnArmed: true, compactArmed: true };

/** Pure transition: the new state and what to do, for one observed token count. */
export function stepLatch(state: LatchState, tokens: number, config: LatchConfig): LatchStep {
  const t = resolveThresholds(config);
  const window = config.contextWindow;
  if (!(window > 0)) throw new RangeError(`contextWindow must be > 0, got ${window}`);
  const margin = config.hysteresisPct ?? 5;
  // Compared as tokens·100 against window·pct, like zoneFor, so both agree at the exact boundary.
  const scaled = tokens * 100;
  const warn = trigger(state.warnArmed, scaled, window * t.warnPct, window * (t.warnPct - margin));
  const compact = trigger(state.compactArmed, scaled, window * t.compactPct, window * (t.compactPct - margin));
  return {
    state: { warnArmed: warn.armed, compactArmed: compact.armed },
    signals: { warnCheckpoint: warn.fired, compact: compact.fired },
  };
}

function trigger(armed: boolean, scaled: number, fireAt: number, rearmBelow: number): { armed: boolean; fired: boolean } {
  if (armed && scaled >= fireAt) return { armed: false, fired: true };
  if (!armed && scaled < rearmBelow) return { armed: true, fired: false };
  return { armed, fired: false };
}

/** The latch as an object for the loop: observe() after each measured context size. */
export interface PressureLatch {
  observe(tokens: number): LatchSignals;
  readonly state: LatchState;
}

export function createPressureLatch(config: LatchConfig, initial: LatchState = INITIAL_LATCH_STATE): PressureLatch {
  resolveThresholds(config); // fail at construction on bad thresholds, not mid-run
  let current = initial;
  return {
    observe(tokens: number): LatchSignals {
      const step = stepLatch(current, tokens, config);
      current = step.state;
      return step.signals;
    },
    get state(): LatchState {
      return current;
    },
  };
}
