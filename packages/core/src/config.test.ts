import { describe, expect, it } from "vitest";
import { configSchema, defaultConfig, duration } from "./config.js";

describe("config schema", () => {
  it("parses durations in every unit and plain milliseconds", () => {
    expect(duration.parse("90s")).toBe(90_000);
    expect(duration.parse("15m")).toBe(900_000);
    expect(duration.parse("1.5h")).toBe(5_400_000);
    expect(duration.parse("1d")).toBe(86_400_000);
    expect(duration.parse("250ms")).toBe(250);
    expect(duration.parse(1234)).toBe(1234);
    expect(duration.safeParse("soon").success).toBe(false);
    expect(duration.safeParse("-5m").success).toBe(false);
  });

  it("fills every default", () => {
    const config = defaultConfig();
    expect(config.context).toEqual({
      policy: "balanced",
      gaugePct: 70,
      warnPct: 80,
      compactPct: 90,
      targetPct: 80,
      recallCapTokens: 4000,
      keepTurns: 4,
      maxStubs: 40,
      llmSummary: true,
      cacheTtl: "auto",
    });
    expect(config.gates).toEqual({ timeout: 300_000, detect: true });
    expect(config.tools).toEqual({
      commandTimeout: 120_000,
      maxResultChars: 30_000,
      passEnv: [],
      isolate: "auto",
      sandbox: { mode: "auto", allowWrite: [], denyRead: [], network: "allow-list", allowHosts: [], maxProcesses: 1_024, maxFileMb: 4_096 },
    });
  });

  it("rejects unknown keys at every level and out-of-order thresholds", () => {
    expect(configSchema.safeParse({ modle: "x" }).success).toBe(false);
    expect(configSchema.safeParse({ context: { warnPc: 1 } }).success).toBe(false);
    const bad = configSchema.safeParse({ context: { warnPct: 95, compactPct: 90 } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["context", "warnPct"]);
  });
});
