import { formatCost, raiseBudgets, shortId, totalUsageTokens, type Budgets, type SessionRecord, type Store } from "@hatloop/core";

// Budgets raised by what is added to what a session has used: `resume --max-cost 5` and the console's
// and the TUI's "raise the budget" alike. A live run reads the new budget when it reaches the old one.

export interface BudgetFlags {
  maxIterations?: number;
  maxTokens?: number;
  maxCost?: number;
  maxRuntime?: number;
}

export async function applyBudgets(store: Store, session: SessionRecord, flags: BudgetFlags): Promise<SessionRecord> {
  const use = {
    iterations: session.iteration,
    tokens: totalUsageTokens(session.usage),
    costUsd: session.costUsd,
    runtimeMs: session.runtimeMs,
  };
  const budgets = raiseBudgets(session.budgets, use, {
    ...(flags.maxIterations === undefined ? {} : { maxIterations: flags.maxIterations }),
    ...(flags.maxTokens === undefined ? {} : { maxTokens: flags.maxTokens }),
    ...(flags.maxCost === undefined ? {} : { maxCostUsd: flags.maxCost }),
    ...(flags.maxRuntime === undefined ? {} : { maxRuntimeMs: flags.maxRuntime }),
  });
  await store.sessions.update(session.id, { budgets });
  return { ...session, budgets };
}

/**
 * The cost budget of a session whose view is open, `moreUsd` over what it has spent (read now from
 * the store): what the view's cost panel does. Says what it did in a line; `budgets`: the new ones.
 */
export async function raiseCostBudget(
  store: Store,
  id: string,
  moreUsd: number,
): Promise<{ ok: boolean; message: string; budgets?: Budgets }> {
  const session = await store.sessions.get(id);
  if (!session) return { ok: false, message: `session ${shortId(id)} is gone` };
  if (session.status === "completed") return { ok: false, message: `session ${shortId(id)} is completed` };
  const { budgets } = await applyBudgets(store, session, { maxCost: moreUsd });
  const spent = formatCost(session.costUsd);
  return {
    ok: true,
    message: `cost budget now ${formatCost(budgets.maxCostUsd ?? 0)} (${formatCost(moreUsd)} over the ${spent} spent)`,
    budgets,
  };
}
