import { MARKERS } from "../markers.js";
import { zoneAtLeast, zoneFor, type ZoneConfig } from "./zones.js";

// The one-line gauge the model sees at >= the gauge threshold:
//   [Context: 81% | 162k/200k tokens | Checkpoint saved]
// Rounding: every number is truncated (floored), never rounded up — 161,999 tokens of 200,000 is
// "80% | 161k/200k". The gauge then never overstates, and the percent matches the zone boundaries
// (zones also switch at the exact percentage).

export interface GaugeInput {
  tokens: number;
  contextWindow: number;
  /** Appends "| Checkpoint saved" when a checkpoint has been written in this pressure episode. */
  checkpointSaved: boolean;
}

export function formatGauge(input: GaugeInput): string {
  const { tokens, contextWindow, checkpointSaved } = input;
  if (!(contextWindow > 0)) throw new RangeError(`contextWindow must be > 0, got ${contextWindow}`);
  const safeTokens = Math.max(0, Math.floor(tokens));
  const pct = Math.floor((safeTokens * 100) / contextWindow);
  const parts = [`${pct}%`, `${kilo(safeTokens)}/${kilo(contextWindow)} tokens`];
  if (checkpointSaved) parts.push("Checkpoint saved");
  return `${MARKERS.gauge}${parts.join(" | ")}]`;
}

/** The gauge line when the context is at or above the gauge threshold, else null. */
export function gaugeLine(input: GaugeInput, zones: Omit<ZoneConfig, "contextWindow"> = {}): string | null {
  const zone = zoneFor(input.tokens, { ...zones, contextWindow: input.contextWindow });
  return zoneAtLeast(zone, "gauge") ? formatGauge(input) : null;
}

function kilo(n: number): string {
  return `${Math.floor(n / 1000)}k`;
}
