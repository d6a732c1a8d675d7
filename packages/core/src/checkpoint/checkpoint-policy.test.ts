import { describe, expect, it } from "vitest";
import { defaultConfig } from "../config.js";
import { LoopControl } from "../loop/control.js";
import { bulkyRead, fakeGit, fakeTool, readTurns, runFixture, type Turn } from "../test-support/loop-fixture.js";
import { apply } from "../state/apply.js";
import { loopState } from "../test-support/loop-state.js";
import type { CheckpointReason } from "../store/port.js";
import { draftCheckpoint } from "./draft.js";

const bulky = bulkyRead;
const reads = readTurns;
const reasons = (run: Awaited<ReturnType<typeof runFixture>>) => run.of("checkpoint.saved").map((e) => `${e.iteration}:${e.data.reason}`);

describe("checkpoint policy", () => {
  it("writes start, interval, hat-change, budget checkpoints once each, on their iterations", async () => {
    const run = await runFixture({
      maxIterations: 7,
      turns: [{ text: "CHECKLIST_ADD:1:one" }, { text: "EVENT:plan.complete" }, ...reads(5)],
    });
    expect(reasons(run)).toEqual(["0:start", "2:hat-change", "5:interval", "7:budget"]);
  });

  it("writes warn-threshold once per pressure episode, then compaction, with the git commit of each", async () => {
    const run = await runFixture({
      session: { hat: "creator" },
      tools: [bulky],
      contextWindow: 20_000,
      maxIterations: 90,
      turns: reads(90),
      config: { checkpoint: { interval: 1000, retain: 100 } },
    });
    const list = run.of("checkpoint.saved");
    const warn = list.filter((e) => e.data.reason === "warn-threshold");
    const compaction = list.filter((e) => e.data.reason === "compaction");
    expect(compaction.length).toBeGreaterThanOrEqual(2);
    // One warn per episode: each warn is followed by a compaction before the next warn.
    for (let i = 1; i < warn.length; i++)
      expect(compaction.some((c) => c.iteration > warn[i - 1]!.iteration && c.iteration <= warn[i]!.iteration)).toBe(true);
    expect(list.every((e) => /^c0+\d+$/.test(e.data.commit ?? ""))).toBe(true);
  });

  it("writes pause on interrupt, failure with context, completion at the end", async () => {
    const control = new LoopControl();
    const paused = await runFixture({ control, turns: [{ text: "a" }, { text: "b", before: () => control.interrupt() }] });
    // Saved during iteration 2 (interrupted in its model call), holding the state after iteration 1.
    expect(reasons(paused).at(-1)).toBe("2:pause");
    expect((await paused.store.checkpoints.latest(paused.session.id))?.iteration).toBe(1);
    const done = await runFixture({ session: { hat: "editor" }, turns: [{ tools: [{ name: "task_complete" }] }] });
    expect(reasons(done)).toEqual(["0:start", "1:completion"]);
  });

  it("skips a routine checkpoint when the context moved less than 5% since the last of its kind", async () => {
    const run = await runFixture({ maxIterations: 1, turns: [{ text: "ok" }] });
    const state = loopState(run.session, { hat: run.deps.hats.get("planner")!, iteration: 1, eventIteration: 1, runStartedAt: Date.now() });
    const deps = { git: fakeGit, handoff: async () => null, now: Date.now };
    // Drafted, then applied as the loop's write path applies a stored one.
    const saved = async (reason: CheckpointReason, tokens: number) => {
      state.contextTokens = tokens;
      const draft = await draftCheckpoint(state, reason, undefined, deps);
      if (draft) apply(state, { type: "checkpointed", ...draft, retain: 50 }, []);
      return draft !== null;
    };
    expect(await saved("interval", 10_000)).toBe(true);
    expect(await saved("interval", 10_400)).toBe(false); // +4%
    expect(await saved("warn-threshold", 10_400)).toBe(true); // another kind: its own baseline
    expect(await saved("warn-threshold", 10_500)).toBe(false);
    expect(await saved("interval", 10_600)).toBe(true); // +6% since the last interval
    expect(await saved("hat-change", 10_600)).toBe(true);
    expect(await saved("hat-change", 10_600)).toBe(true); // never skipped
  });

  it("keeps the last K checkpoints plus the first and every completion and failure", async () => {
    const run = await runFixture({
      session: { hat: "creator" },
      tools: [bulky],
      maxIterations: 30,
      turns: reads(30),
      config: { checkpoint: { interval: 1, retain: 3 } },
    });
    const kept = (await run.store.checkpoints.list(run.session.id)).map((c) => c.seq).reverse();
    const all = run.of("checkpoint.saved").map((e) => e.data.seq);
    expect(kept).toEqual([all[0]!, ...all.slice(-3)]);
  });

  it("costs the same to write at iteration 400 as at iteration 600: references, not copies", async () => {
    const run = await runFixture({
      session: { hat: "creator" },
      tools: [bulky],
      contextWindow: 20_000,
      maxIterations: 600,
      turns: reads(600),
      config: { checkpoint: { interval: 5, retain: 1000 } },
    });
    const rows = run.store.data.checkpoints.get(run.session.id)!;
    // The first interval checkpoint at or after an iteration (routine ones may be skipped).
    const size = (iteration: number) => JSON.stringify(rows.find((r) => r.iteration >= iteration && r.reason === "interval")).length;
    // What grows at first (the Compacted History, up to its cap; the stubs of the live context,
    // up to context.maxStubs) is bounded, and nothing grows with the history itself.
    const steady = [400, 500, 590].map(size);
    expect(Math.max(...steady) / Math.min(...steady)).toBeLessThan(1.3);
    const all = rows.map((r) => JSON.stringify(r).length);
    // The Compacted History (16,000 characters at most, its entries carrying the names each compaction indexed) dominates.
    expect(Math.max(...all)).toBeLessThan(24_000);
    expect(size(590)).toBeLessThan(JSON.stringify(run.messages).length / 100);
  });

  it("carries the last failure in the handoff after compaction has taken the failing result out", async () => {
    const failing = fakeTool("run_command", () => ({
      isError: true,
      content: "RUN v3\n\n FAIL  test/auth.test.ts > refreshes once\nAssertionError: expected 2 to be 1\n    at x.ts:1",
    }));
    const turns: Turn[] = [{ text: "Testing.", tools: [{ name: "run_command", input: { command: "pnpm test" } }] }, ...reads(80)];
    const run = await runFixture({
      session: { hat: "creator" },
      tools: [bulky, failing],
      contextWindow: 20_000,
      maxIterations: 81,
      turns,
      config: { checkpoint: { interval: 1000, retain: 100 }, context: { ...defaultConfig().context, policy: "zones" } },
    });
    const latest = (await run.store.checkpoints.latest(run.session.id))!;
    // The failing result itself is long gone from the live context (pruned into the summary)...
    expect(run.of("context.compacted").length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(latest.context)).not.toContain(`"seq":3,`);
    // ...but its test and assertion are in the handoff, and in the state a resume restores.
    const failure = "FAIL test/auth.test.ts > refreshes once — AssertionError: expected 2 to be 1";
    expect((latest.handoff as { working: { last_failure: string } }).working.last_failure).toBe(failure);
    expect((latest.state as { lastFailure: string }).lastFailure).toBe(failure);
  });
});
