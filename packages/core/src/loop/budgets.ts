import type { HatloopConfig } from "../config.js";
import type { Budgets } from "../store/port.js";

export type BudgetName = "iterations" | "tokens" | "cost" | "runtime";

export interface BudgetUse {
  iterations: number;
  /** Every token the model processed: input (incl. cache reads and writes) plus output. */
  tokens: number;
  costUsd: number;
  runtimeMs: number;
}

export interface BudgetExceeded {
  budget: BudgetName;
  limit: number;
  value: number;
}

/** The first budget reached, checked before each iteration; null limits are unlimited. */
export function exceededBudget(budgets: Budgets, use: BudgetUse): BudgetExceeded | null {
  const checks: Array<[BudgetName, number | null, number]> = [
    ["iterations", budgets.maxIterations, use.iterations],
    ["tokens", budgets.maxTokens, use.tokens],
    ["cost", budgets.maxCostUsd, use.costUsd],
    ["runtime", budgets.maxRuntimeMs, use.runtimeMs],
  ];
  for (const [budget, limit, value] of checks) {
    if (limit !== null && limit > 0 && value >= limit) return { budget, limit, value };
  }
  return null;
}

/**
 * Budgets for a resumed session: each raise is on top of what was used, so resuming a session that
 * stopped at its iteration limit with `--max-iterations 10` runs ten more (a peer bug was to hit the
 * same limit again at once).
 */
export function raiseBudgets(current: Budgets, use: BudgetUse, raise: Partial<Budgets>): Budgets {
  const add = (limit: number | null, used: number, more: number | null | undefined) =>
    more === undefined ? limit : more === null ? null : used + more;
  return {
    maxIterations: add(current.maxIterations, use.iterations, raise.maxIterations),
    maxTokens: add(current.maxTokens, use.tokens, raise.maxTokens),
    maxCostUsd: add(current.maxCostUsd, use.costUsd, raise.maxCostUsd),
    maxRuntimeMs: add(current.maxRuntimeMs, use.runtimeMs, raise.maxRuntimeMs),
  };
}

/** A new session's budgets, from the configuration it starts with (unset and 0 runtime: no limit). */
export function configuredBudgets(config: Pick<HatloopConfig, "maxIterations" | "maxTokens" | "maxCostUsd" | "maxRuntime">): Budgets {
  return {
    maxIterations: config.maxIterations,
    maxTokens: config.maxTokens ?? null,
    maxCostUsd: config.maxCostUsd ?? null,
    maxRuntimeMs: config.maxRuntime || null,
  };
}
