import { memoryStore } from "@hatloop/core";
import { describe, expect, it } from "vitest";
import { measureCheckpoints } from "./checkpoints.js";
import { measureOverhead } from "./overhead.js";

// The runtime bench's measurements, on the in-memory store (the real drivers run in `pnpm bench`).

describe("the runtime harness", () => {
  it("measures overhead only once the context has reached the requested size", async () => {
    const run = await measureOverhead(memoryStore(), 30_000, 5);
    expect(run.samplesMs).toHaveLength(5);
    expect(run.samplesMs.every((ms) => Number.isFinite(ms) && ms >= 0)).toBe(true); // how long is the bench's figure, not a claim here
    expect(run.contextTokens.min).toBeGreaterThanOrEqual(30_000);
    expect(run.contextTokens.max).toBeLessThan(60_000);
  });

  it("times checkpoint writes and resumes at each stage", async () => {
    const lines: string[] = [];
    const stages = await measureCheckpoints(memoryStore(), [10, 20], 2, (l) => lines.push(l));
    expect(stages.map((s) => s.iteration)).toEqual([10, 20]);
    for (const s of stages) {
      // The interval and the budget checkpoint at the stage, then one budget checkpoint per resume.
      expect(s.writeMs.length).toBeGreaterThanOrEqual(3);
      expect(s.resumeMs).toHaveLength(2);
    }
    expect(lines).toHaveLength(2);
  });
});
