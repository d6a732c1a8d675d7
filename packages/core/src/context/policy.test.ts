import { cheapestTrigger } from "@hatloop/context";
import { describe, expect, it } from "vitest";
import { initialGuard, type PolicyState } from "../state/guard.js";
import { CompactionPolicy as Policy, type PolicyName, type SummaryPricing } from "./policy.js";

const WINDOW = 200_000;

/** A policy with its observations threaded through, as the context manager does with the guard's state. */
class CompactionPolicy {
  private readonly policy: Policy;
  private state: PolicyState = initialGuard().policy;
  constructor(name: PolicyName, summary: SummaryPricing | null) {
    this.policy = new Policy(name, summary);
  }
  observe(tokens: number): void {
    this.state = this.policy.observe(this.state, tokens);
  }
  compacted(tokens: number): void {
    this.state = this.policy.compacted(this.state, tokens);
  }
  residual(window: number): number | null {
    return this.policy.residual(window);
  }
  trigger(window: number): number | null {
    return this.policy.trigger(this.state, window);
  }
  wants(tokens: number, window: number): boolean {
    return this.policy.wants(this.state, tokens, window);
  }
}

/** Feeds a policy a context growing by `growth` per call from `start`. */
function grow(policy: CompactionPolicy, start: number, growth: number, calls: number): number {
  let tokens = start;
  for (let i = 0; i < calls; i++) policy.observe((tokens += growth));
  return tokens;
}

describe("CompactionPolicy", () => {
  it("compacts balanced sessions at the cheapest size for what they keep and how fast they grow", () => {
    const policy = new CompactionPolicy("balanced", null);
    grow(policy, 10_000, 2_000, 5);
    const residual = policy.residual(WINDOW)!;
    expect(residual).toBe(50_000);
    expect(policy.trigger(WINDOW)).toBeCloseTo(cheapestTrigger({ growthPerCall: 2_000, residualTokens: 50_000 }), 6); // ~98k, far below 90%
    expect(policy.wants(90_000, WINDOW)).toBe(false);
    expect(policy.wants(100_000, WINDOW)).toBe(true);
  });

  it("keeps less and compacts earlier on economy, more and later on roomy; zones leaves it to the guard", () => {
    const at = (name: "economy" | "balanced" | "roomy") => {
      const policy = new CompactionPolicy(name, null);
      grow(policy, 10_000, 2_000, 5);
      return policy.trigger(WINDOW)!;
    };
    expect(at("economy")).toBeLessThan(at("balanced"));
    expect(at("balanced")).toBeLessThan(at("roomy"));
    const zones = new CompactionPolicy("zones", null);
    grow(zones, 10_000, 2_000, 50);
    expect(zones.wants(190_000, WINDOW)).toBe(false);
    expect(zones.residual(WINDOW)).toBeNull();
  });

  it("waits longer when compactions pay for summary calls, and learns growth from what it sees", () => {
    const plain = new CompactionPolicy("balanced", null);
    const summarising = new CompactionPolicy("balanced", { inputRatio: 1 / 3, maxInputTokens: 21_000, outputTokens: 3_000 });
    grow(plain, 10_000, 2_000, 5);
    grow(summarising, 10_000, 2_000, 5);
    expect(summarising.trigger(WINDOW)!).toBeGreaterThan(plain.trigger(WINDOW)! + 2_000);
    const fast = new CompactionPolicy("balanced", null);
    grow(fast, 10_000, 8_000, 5);
    expect(fast.trigger(WINDOW)!).toBeGreaterThan(plain.trigger(WINDOW)!);
  });

  it("does not thrash: a compaction that keeps more than the target raises the trigger, and calls must pass", () => {
    const policy = new CompactionPolicy("balanced", null);
    grow(policy, 10_000, 2_000, 5);
    const before = policy.trigger(WINDOW)!;
    policy.compacted(70_000); // pruning had to keep big recent turns
    expect(policy.trigger(WINDOW)!).toBeGreaterThan(70_000);
    expect(policy.trigger(WINDOW)!).toBeGreaterThan(before);
    policy.observe(72_000);
    expect(policy.wants(130_000, WINDOW)).toBe(false); // one call after a compaction
    policy.observe(74_000);
    policy.observe(76_000);
    expect(policy.wants(130_000, WINDOW)).toBe(true);
    expect(policy.wants(100_000, WINDOW)).toBe(false);
  });
});
