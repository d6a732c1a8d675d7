import { describe, expect, it } from "vitest";
import { defaultConfig } from "../config.js";
import { bulkyRead, readTurns, runFixture } from "../test-support/loop-fixture.js";

// Context management's memory is part of the loop state: a resumed run goes on from the same
// pressure episode instead of starting a new one (which wrote a second warn checkpoint at once).

const bulky = bulkyRead;
const reads = readTurns;
const options = {
  session: { hat: "creator" },
  tools: [bulky],
  contextWindow: 20_000,
  config: { checkpoint: { interval: 1000, retain: 100 }, context: { ...defaultConfig().context, policy: "zones" as const } },
};

describe("resume keeps the context guard's memory", () => {
  it("does not start a new pressure episode: no second warn checkpoint before the compaction", async () => {
    // Where the first episode's warn and compaction come, uninterrupted.
    const whole = await runFixture({ ...options, maxIterations: 40, turns: reads(40) });
    const warnAt = whole.of("checkpoint.saved").find((e) => e.data.reason === "warn-threshold")!.iteration;
    const compactAt = whole.of("context.compacted")[0]!.iteration;
    expect(compactAt).toBeGreaterThan(warnAt + 1);

    // Paused by its budget right after the warn checkpoint, then resumed.
    const first = await runFixture({ ...options, maxIterations: warnAt, turns: reads(warnAt) });
    const saved = (await first.store.checkpoints.latest(first.session.id))!;
    expect((saved.state as { guard: { latch: { warnArmed: boolean } } }).guard.latch.warnArmed).toBe(false);
    const resumed = await runFixture({ ...options, store: first.store, maxIterations: 40, turns: reads(40 - warnAt, warnAt) });
    const firstCompaction = resumed.of("context.compacted")[0]!.iteration;
    const warns = resumed.of("checkpoint.saved").filter((e) => e.data.reason === "warn-threshold" && e.iteration < firstCompaction);
    expect(warns).toEqual([]);
    // The model is told the checkpoint exists, as it would have been without the pause.
    const gauge = JSON.stringify(resumed.model.requests[0]!.messages.at(-1));
    expect(gauge).toContain("Checkpoint saved");
  });
});
