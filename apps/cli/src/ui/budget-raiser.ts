import type { Store } from "@hatloop/core";
import type { TuiStore } from "@hatloop/tui";
import { raiseCostBudget } from "../session/budgets.js";

/**
 * The view's cost panel raising the budget ($, then +): in the store, where the run reads it when it
 * reaches the old one; the view shows the new budget at once (no event says it before then).
 */
export function budgetRaiser(store: Store, id: string, ui: TuiStore) {
  return async (moreUsd: number) => {
    const { ok, message, budgets } = await raiseCostBudget(store, id, moreUsd);
    if (budgets) ui.getState().budgets = budgets;
    return { ok, message };
  };
}
