import { describe, expect, it } from "vitest";
import { MARKERS } from "../markers.js";
import { formatGauge, gaugeLine } from "./gauge.js";
import { createPressureLatch, INITIAL_LATCH_STATE, stepLatch } from "./pressure-latch.js";
import { thresholdTokens, zoneFor } from "./zones.js";

const window = { contextWindow: 200_000 };

describe("zoneFor", () => {
  it("switches exactly at 70 / 80 / 90 percent by default", () => {
    expect(zoneFor(139_999, window)).toBe("green");
    expect(zoneFor(140_000, window)).toBe("gauge");
    expect(zoneFor(159_999, window)).toBe("gauge");
    expect(zoneFor(160_000, window)).toBe("warn");
    expect(zoneFor(179_999, window)).toBe("warn");
    expect(zoneFor(180_000, window)).toBe("compact");
    expect(zoneFor(250_000, window)).toBe("compact");
    expect(zoneFor(0, window)).toBe("green");
  });

  it("takes configurable thresholds and rejects inconsistent ones", () => {
    const tight = { contextWindow: 200_000, gaugePct: 40, warnPct: 45, compactPct: 50 };
    expect(zoneFor(79_999, tight)).toBe("green");
    expect(zoneFor(80_000, tight)).toBe("gauge");
    expect(zoneFor(90_000, tight)).toBe("warn");
    expect(zoneFor(100_000, tight)).toBe("compact");
    expect(zoneFor(160_000, { contextWindow: 1_000_000 })).toBe("green");
    expect(() => zoneFor(1, { contextWindow: 200_000, warnPct: 95 })).toThrow(RangeError);
    expect(() => zoneFor(1, { contextWindow: 0 })).toThrow(RangeError);
  });

  it("names the first token count at a threshold", () => {
    expect(thresholdTokens(200_000, 90)).toBe(180_000);
    expect(thresholdTokens(1_000_003, 90)).toBe(900_003);
  });
});

describe("pressure latch", () => {
  it("fires one warn and one compaction per episode, stays quiet while pressure persists", () => {
    const latch = createPressureLatch(window);
    const seen = [100_000, 150_000, 161_000, 170_000, 181_000, 185_000, 179_000, 182_000, 190_000].map((t) => latch.observe(t));
    expect(seen.filter((s) => s.warnCheckpoint)).toHaveLength(1);
    expect(seen.filter((s) => s.compact)).toHaveLength(1);
    expect(seen[2]).toEqual({ warnCheckpoint: true, compact: false });
    expect(seen[4]).toEqual({ warnCheckpoint: false, compact: true });
  });

  it("re-arms only after tokens drop below the trigger minus the hysteresis", () => {
    const latch = createPressureLatch(window); // re-arm compact below 85%, warn below 75%
    expect(latch.observe(180_000).compact).toBe(true);
    expect(latch.observe(171_000).compact).toBe(false); // 85.5%: still the same episode
    expect(latch.observe(181_000).compact).toBe(false);
    expect(latch.observe(169_999).compact).toBe(false); // re-armed here
    expect(latch.state.compactArmed).toBe(true);
    expect(latch.observe(180_000).compact).toBe(true); // a new episode
    expect(latch.observe(140_000)).toEqual({ warnCheckpoint: false, compact: false });
    expect(latch.state).toEqual({ warnArmed: true, compactArmed: true });
  });

  it("fires warn and compact together on a jump straight into the compact zone", () => {
    const step = stepLatch(INITIAL_LATCH_STATE, 195_000, window);
    expect(step.signals).toEqual({ warnCheckpoint: true, compact: true });
    expect(step.state).toEqual({ warnArmed: false, compactArmed: false });
  });

  it("honours custom thresholds and hysteresis", () => {
    const latch = createPressureLatch({ contextWindow: 100_000, warnPct: 40, compactPct: 50, gaugePct: 30, hysteresisPct: 20 });
    expect(latch.observe(50_000).compact).toBe(true);
    expect(latch.observe(31_000).compact).toBe(false);
    expect(latch.observe(29_999).compact).toBe(false);
    expect(latch.observe(50_000).compact).toBe(true);
  });

  it("never mutates the state it is given", () => {
    const state = { warnArmed: true, compactArmed: true };
    stepLatch(state, 199_000, window);
    expect(state).toEqual({ warnArmed: true, compactArmed: true });
  });
});

describe("formatGauge", () => {
  it("renders the exact gauge line", () => {
    expect(formatGauge({ tokens: 162_000, contextWindow: 200_000, checkpointSaved: true })).toBe(
      "[Context: 81% | 162k/200k tokens | Checkpoint saved]",
    );
    expect(formatGauge({ tokens: 162_000, contextWindow: 200_000, checkpointSaved: false })).toBe("[Context: 81% | 162k/200k tokens]");
  });

  it("truncates every number, never rounding up", () => {
    expect(formatGauge({ tokens: 161_999, contextWindow: 200_000, checkpointSaved: false })).toBe("[Context: 80% | 161k/200k tokens]");
    expect(formatGauge({ tokens: 179_999, contextWindow: 200_000, checkpointSaved: false })).toBe("[Context: 89% | 179k/200k tokens]");
    expect(formatGauge({ tokens: 640_500, contextWindow: 1_000_000, checkpointSaved: false })).toBe("[Context: 64% | 640k/1000k tokens]");
  });

  it("starts with the gauge marker and is shown only from the gauge threshold on", () => {
    expect(formatGauge({ tokens: 1, contextWindow: 200_000, checkpointSaved: false }).startsWith(MARKERS.gauge)).toBe(true);
    expect(gaugeLine({ tokens: 139_999, contextWindow: 200_000, checkpointSaved: false })).toBeNull();
    expect(gaugeLine({ tokens: 140_000, contextWindow: 200_000, checkpointSaved: false })).toBe("[Context: 70% | 140k/200k tokens]");
    expect(gaugeLine({ tokens: 100_000, contextWindow: 200_000, checkpointSaved: false }, { gaugePct: 50 })).not.toBeNull();
  });
});
