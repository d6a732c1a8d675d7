import { describe, expect, it } from "vitest";
import { exceededBudget, raiseBudgets } from "./budgets.js";

const unlimited = { maxIterations: null, maxTokens: null, maxCostUsd: null, maxRuntimeMs: null };
const use = { iterations: 10, tokens: 5_000, costUsd: 1.5, runtimeMs: 60_000 };

describe("budgets", () => {
  it("passes below every limit and treats null or 0 as unlimited", () => {
    expect(exceededBudget(unlimited, use)).toBeNull();
    expect(exceededBudget({ maxIterations: 11, maxTokens: 5_001, maxCostUsd: 1.51, maxRuntimeMs: 60_001 }, use)).toBeNull();
    expect(exceededBudget({ ...unlimited, maxRuntimeMs: 0 }, use)).toBeNull();
  });

  it("stops at each limit, reporting which", () => {
    expect(exceededBudget({ ...unlimited, maxIterations: 10 }, use)).toEqual({ budget: "iterations", limit: 10, value: 10 });
    expect(exceededBudget({ ...unlimited, maxTokens: 5_000 }, use)).toEqual({ budget: "tokens", limit: 5_000, value: 5_000 });
    expect(exceededBudget({ ...unlimited, maxCostUsd: 1.5 }, use)).toEqual({ budget: "cost", limit: 1.5, value: 1.5 });
    expect(exceededBudget({ ...unlimited, maxRuntimeMs: 30_000 }, use)).toEqual({ budget: "runtime", limit: 30_000, value: 60_000 });
  });

  it("raises budgets on top of what was used, so a resumed session does not stop at once", () => {
    const raised = raiseBudgets({ ...unlimited, maxIterations: 10, maxCostUsd: 1.5 }, use, { maxIterations: 5, maxCostUsd: 2 });
    expect(raised).toEqual({ maxIterations: 15, maxTokens: null, maxCostUsd: 3.5, maxRuntimeMs: null });
    expect(exceededBudget(raised, use)).toBeNull();
    expect(raiseBudgets({ ...unlimited, maxIterations: 10 }, use, { maxIterations: null }).maxIterations).toBeNull();
  });
});
