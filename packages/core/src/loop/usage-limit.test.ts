import { describe, expect, it } from "vitest";
import { defaultConfig } from "../config.js";
import { ModelError } from "../ports/model.js";
import { runFixture } from "../test-support/loop-fixture.js";
import { LoopControl } from "./control.js";

// A usage limit resets in hours: the loop waits for the reset the API gave, says so once, and asks
// again in the same iteration; it stops, resumably, when told not to wait, when no reset time was
// given, or when the reset is past the runtime budget; `hatloop stop` ends the wait. Short resets
// stand in for hours where the loop really waits.

const HOURS_4 = 4 * 3_600_000 + 12 * 60_000;
const limited = (resetAt: number | null) =>
  new ModelError("Anthropic API error 429 rate_limit_error: usage limit reached", 429, false, null, { resetAt });
const retry = (overrides: Partial<ReturnType<typeof defaultConfig>["retry"]>) => ({ retry: { ...defaultConfig().retry, ...overrides } });

describe("a usage limit", () => {
  it("is waited out until the reset the API gave, said once, and the same iteration goes on", async () => {
    const resetAt = Date.now() + 400;
    let askedAgainAt = 0;
    const run = await runFixture({
      maxIterations: 1,
      config: retry({ maxDelay: 20 }),
      turns: [
        { error: limited(resetAt) },
        // Still refused after the reset (clocks differ): waited out again, not said again.
        { error: limited(resetAt) },
        { text: "Going on.", before: () => (askedAgainAt = Date.now()) },
      ],
    });
    expect(run.outcome).toMatchObject({ status: "paused", reason: "budget:iterations", exitCode: 3 });
    expect(run.model.requests).toHaveLength(3);
    expect(askedAgainAt).toBeGreaterThanOrEqual(resetAt);
    const said = run.of("model.usage_limit");
    expect(said.map((e) => [e.data.action, e.data.resetAt])).toEqual([["wait", resetAt]]);
    expect(said[0]!.data.message).toMatch(/^usage limit reached; waiting until \d\d:\d\d \(0s\), then going on$/);
    expect(run.of("iteration.start").map((e) => e.iteration)).toEqual([1]);
    expect(run.of("model.response")).toHaveLength(1);
    expect(run.of("error")).toEqual([]);
  });

  it("stops, resumably, when told not to wait", async () => {
    const resetAt = Date.parse("2026-11-28T03:00:00Z");
    const stopped = await runFixture({ maxIterations: 3, config: retry({ usageLimit: "stop" }), turns: [{ error: limited(resetAt) }] });
    expect(stopped.outcome).toEqual({ status: "paused", reason: "usage limit (resets 2026-11-28T03:00:00Z)", exitCode: 3 });
    expect(stopped.model.requests).toHaveLength(1);
    expect(stopped.of("model.usage_limit").map((e) => e.data.action)).toEqual(["stop"]);
    expect(stopped.of("model.usage_limit")[0]!.data.message).toMatch(
      /^usage limit reached; it resets at .*; stopping, as retry.usageLimit is stop$/,
    );
    // The iteration that hit the limit is redone by the resumed run.
    const resumed = await runFixture({ store: stopped.store, maxIterations: 1, turns: [{ text: "Back again." }] });
    expect(resumed.outcome.reason).toBe("budget:iterations");
    expect(resumed.of("iteration.start").map((e) => e.iteration)).toEqual([1]);
  });

  it("stops with the runtime budget's reason when the reset comes after the budget ends, without waiting", async () => {
    const started = Date.now();
    const run = await runFixture({
      // 50 minutes: the time left shows as minutes and seconds (an hour to the millisecond would be "1h00m").
      session: { budgets: { maxIterations: 5, maxTokens: null, maxCostUsd: null, maxRuntimeMs: 3_000_000 } },
      turns: [{ error: limited(Date.now() + HOURS_4) }],
    });
    expect(run.outcome).toEqual({ status: "paused", reason: "budget:runtime", exitCode: 3 });
    expect(Date.now() - started).toBeLessThan(10_000);
    const said = run.of("model.usage_limit");
    expect(said.map((e) => e.data.action)).toEqual(["budget"]);
    expect(said[0]!.data.message).toMatch(
      /^usage limit reached; it resets at .* \(4h1[12]m\), after the runtime budget ends \(\d+m\d\ds left\); stopping there$/,
    );
  });

  it("ends a long wait at once on hatloop stop", async () => {
    const control = new LoopControl();
    const run = await runFixture({
      control,
      turns: [{ error: limited(Date.now() + HOURS_4), before: () => setTimeout(() => control.requestStop(), 100) }],
    });
    expect(run.outcome).toMatchObject({ status: "paused", reason: "stopped by the user" });
    expect(run.of("model.usage_limit")[0]!.data.message).toMatch(/^usage limit reached; waiting until .* \(4h1[12]m\), then going on$/);
  });

  it("stops when the API gave no reset time", async () => {
    const run = await runFixture({ turns: [{ error: limited(null) }] });
    expect(run.outcome).toEqual({ status: "paused", reason: "usage limit", exitCode: 3 });
    expect(run.of("model.usage_limit")[0]!.data.message).toBe(
      "usage limit reached and the API gave no reset time; stopping (resume once the limit has reset)",
    );
  });
});
