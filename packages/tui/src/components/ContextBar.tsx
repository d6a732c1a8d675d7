import { Box, Text } from "ink";
import { formatCost, formatTokens } from "@hatloop/core";
import type { TuiState } from "../state/types.js";
import { col, monochrome, zoneColor } from "./theme.js";

/** The zones' thresholds (per cent of the window), marked on the gauge. */
const THRESHOLDS = [70, 80, 90];

/** The context gauge (zone, thresholds marked, tokens of the window) and what the session has cost. */
export function ContextBar({ state, width }: { state: TuiState; width: number }) {
  const { tokens, window, percent, zone } = state.context;
  const bar = Math.max(10, Math.min(40, Math.floor(width / 4)));
  const filled = Math.min(bar, Math.round((percent / 100) * bar));
  const marks = new Set(THRESHOLDS.map((t) => Math.round((t / 100) * bar)));
  let empty = "";
  for (let i = filled; i < bar; i++) empty += marks.has(i) ? "┊" : "░";
  const u = state.usage;
  // The API counts a prompt's cached part apart from `inputTokens` (only what came after the last
  // cache breakpoint, often 0): what went in is all three, with the cached share beside it.
  const promptIn = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens;
  const budget = state.budgets.maxCostUsd ? ` / ${formatCost(state.budgets.maxCostUsd)}` : "";
  const alarm = zone === "warn" || zone === "compact";
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        context <Text color={col(zoneColor[zone])}>{"█".repeat(filled)}</Text>
        <Text color={col("gray")}>{empty}</Text>{" "}
        <Text color={col(zoneColor[zone])} bold={alarm} inverse={alarm && monochrome()}>
          {percent}% {zone}
        </Text>{" "}
        {formatTokens(tokens)}/{formatTokens(window)} tokens
      </Text>
      <Text wrap="truncate-end">
        tokens in {formatTokens(promptIn)} (cache read {formatTokens(u.cacheReadTokens)}, write {formatTokens(u.cacheWriteTokens)}) · out{" "}
        {formatTokens(u.outputTokens)} · cost <Text bold>{formatCost(state.costUsd)}</Text>
        {budget}
      </Text>
    </Box>
  );
}
