// Guard zones: green < gauge% ≤ gauge < warn% ≤ warn < compact% ≤ compact. Boundaries are inclusive
// from below (exactly 80% is "warn") and computed in integers, so 160,000 of 200,000 never lands in
// "gauge" through floating-point error.

export type ContextZone = "green" | "gauge" | "warn" | "compact";

const ZONE_ORDER: readonly ContextZone[] = ["green", "gauge", "warn", "compact"];

export interface ZoneThresholds {
  /** At or above: the gauge line is shown to the model. Default 70. */
  gaugePct: number;
  /** At or above: warn and write a checkpoint. Default 80. */
  warnPct: number;
  /** At or above: compact. Default 90. */
  compactPct: number;
}

const DEFAULT_ZONE_THRESHOLDS: ZoneThresholds = { gaugePct: 70, warnPct: 80, compactPct: 90 };

export interface ZoneConfig extends Partial<ZoneThresholds> {
  contextWindow: number;
}

export function resolveThresholds(config: Partial<ZoneThresholds>): ZoneThresholds {
  const t = { ...DEFAULT_ZONE_THRESHOLDS, ...definedOnly(config) };
  if (!(t.gaugePct <= t.warnPct && t.warnPct <= t.compactPct)) {
    throw new RangeError(`expected gaugePct <= warnPct <= compactPct, got ${t.gaugePct}/${t.warnPct}/${t.compactPct}`);
  }
  return t;
}

/** Token count at which a percentage of the window is reached (rounded up: the first count "at" it). */
export function thresholdTokens(contextWindow: number, pct: number): number {
  assertWindow(contextWindow);
  return Math.ceil((contextWindow * pct) / 100);
}

export function zoneFor(tokens: number, config: ZoneConfig): ContextZone {
  assertWindow(config.contextWindow);
  const t = resolveThresholds(config);
  if (reaches(tokens, config.contextWindow, t.compactPct)) return "compact";
  if (reaches(tokens, config.contextWindow, t.warnPct)) return "warn";
  if (reaches(tokens, config.contextWindow, t.gaugePct)) return "gauge";
  return "green";
}

/** True when zone a is at least as severe as zone b. */
export function zoneAtLeast(a: ContextZone, b: ContextZone): boolean {
  return ZONE_ORDER.indexOf(a) >= ZONE_ORDER.indexOf(b);
}

function reaches(tokens: number, window: number, pct: number): boolean {
  return tokens * 100 >= window * pct;
}

function assertWindow(contextWindow: number): void {
  if (!(contextWindow > 0)) throw new RangeError(`contextWindow must be > 0, got ${contextWindow}`);
}

function definedOnly(config: Partial<ZoneThresholds>): Partial<ZoneThresholds> {
  const out: Partial<ZoneThresholds> = {};
  if (config.gaugePct !== undefined) out.gaugePct = config.gaugePct;
  if (config.warnPct !== undefined) out.warnPct = config.warnPct;
  if (config.compactPct !== undefined) out.compactPct = config.compactPct;
  return out;
}
