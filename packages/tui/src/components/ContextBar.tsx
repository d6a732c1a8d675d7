import { Box, Text } from "ink";
import { formatCost, formatTokens } from "@hatloop/core";
import type { TuiState } from "../state/types.js";
import { zoneColor } from "./theme.js";

/** The context gauge (zone colour, tokens of the window) and what the session has cost. */
export function ContextBar({ state, width }: { state: TuiState; width: number }) {
  const { tokens, window, percent, zone } = state.context;
  const bar = Math.max(10, Math.min(30, Math.floor(width / 4)));
  const filled = Math.min(bar, Math.round((percent / 100) * bar));
  const u = state.usage;
  const budget = state.budgets.maxCostUsd ? ` / ${formatCost(state.budgets.maxCostUsd)}` : "";
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        context <Text color={zoneColor[zone]}>{"█".repeat(filled)}</Text>
        <Text color="gray">{"░".repeat(bar - filled)}</Text> <Text color={zoneColor[zone]}>{percent}%</Text> {formatTokens(tokens)}/
        {formatTokens(window)} tokens
      </Text>
      <Text wrap="truncate-end">
        tokens in {formatTokens(u.inputTokens)} · out {formatTokens(u.outputTokens)} · cache read {formatTokens(u.cacheReadTokens)} · write{" "}
        {formatTokens(u.cacheWriteTokens)} · cost <Text bold>{formatCost(state.costUsd)}</Text>
        {budget}
      </Text>
    </Box>
  );
}
