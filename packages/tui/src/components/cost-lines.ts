import { formatCost, formatDuration, formatTokens, type Usage } from "@hatloop/core";

// The cost panel's figures, for the home screen's selected session and the session view alike:
// what was spent against the cost budget, the burn rate over the session's running time, when the
// budget runs out at that rate, and the tokens by kind (the API bills each kind at its own price).

export interface CostFigures {
  costUsd: number;
  /** The cost budget; null: none. */
  maxCostUsd: number | null;
  /** How long the session has run (its clock: paused and waiting time excluded). */
  runtimeMs: number;
  iteration: number;
  usage: Usage;
}

/** Below 10 s of running, a rate says more about the first call than about the session. */
const MIN_RATE_MS = 10_000;

/** Dollars an hour over the session's running time; null before 10 s have run or while nothing is spent. */
function burnRate(f: CostFigures): number | null {
  return f.runtimeMs >= MIN_RATE_MS && f.costUsd > 0 ? f.costUsd / (f.runtimeMs / 3_600_000) : null;
}

/** The running time left before the cost budget is reached at the burn rate; null when it cannot be said. */
function timeToBudget(f: CostFigures): number | null {
  const rate = burnRate(f);
  if (rate === null || f.maxCostUsd === null) return null;
  return Math.max(0, ((f.maxCostUsd - f.costUsd) / rate) * 3_600_000);
}

/** The panel's lines, label and text, in order. */
export function costLines(f: CostFigures): Array<[string, string]> {
  const rate = burnRate(f);
  const left = timeToBudget(f);
  const spent =
    f.maxCostUsd === null
      ? `${formatCost(f.costUsd)} (no cost budget)`
      : `${formatCost(f.costUsd)} of ${formatCost(f.maxCostUsd)} (${Math.round((100 * f.costUsd) / Math.max(f.maxCostUsd, 1e-9))}%)`;
  const perIteration = f.iteration > 0 ? ` · ${formatCost(f.costUsd / f.iteration)} an iteration (${f.iteration})` : "";
  const projection =
    f.maxCostUsd === null
      ? "none: no cost budget to reach"
      : f.costUsd >= f.maxCostUsd
        ? "the budget is reached: raise it to go on"
        : left === null
          ? "not yet: too little spent or run to tell"
          : `the ${formatCost(f.maxCostUsd)} budget is reached after ${formatDuration(left)} more running`;
  const total = f.usage.inputTokens + f.usage.outputTokens + f.usage.cacheReadTokens + f.usage.cacheWriteTokens;
  const kind = (label: string, n: number): [string, string] => [
    label,
    `${formatTokens(n).padStart(7)}  ${total ? `${Math.round((100 * n) / total)}%`.padStart(4) : ""}`,
  ];
  return [
    ["spent", spent],
    [
      "burn rate",
      rate === null ? "not yet (under 10 s run)" : `${formatCost(rate)}/h over ${formatDuration(f.runtimeMs)} of running${perIteration}`,
    ],
    ["projection", projection],
    kind("input", f.usage.inputTokens),
    kind("output", f.usage.outputTokens),
    kind("cache read", f.usage.cacheReadTokens),
    kind("cache write", f.usage.cacheWriteTokens),
  ];
}

/** An amount of dollars as typed ("2", "$2.50"); null when it is not one. */
export function parseDollars(text: string): number | null {
  const match = /^\$?\s*(\d+(?:\.\d+)?|\.\d+)$/.exec(text.trim());
  const value = match ? Number(match[1]) : NaN;
  return Number.isFinite(value) && value > 0 ? value : null;
}
