import { Box, Text } from "ink";
import { formatDuration, shortId } from "@hatloop/core";
import type { TuiState } from "../state/types.js";
import { fit } from "./lines.js";
import { statusColor } from "./theme.js";

export function Header({ state, width, now, mode }: { state: TuiState; width: number; now: number; mode: "run" | "watch" }) {
  const elapsed = state.runtimeMs + (state.runningSince === null ? 0 : Math.max(0, now - state.runningSince));
  const max = state.budgets.maxIterations;
  const status = state.statusReason ? `${state.status} (${state.statusReason})` : state.status;
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {fit(`hatloop ${mode === "watch" ? "watch " : ""}· ${shortId(state.sessionId)} · ${state.task}`, width)}
      </Text>
      <Text wrap="truncate-end">
        hat <Text color="magenta" bold>{state.hat}</Text> · iteration {state.iteration}
        {max ? `/${max}` : ""} · {formatDuration(elapsed)} · <Text color={statusColor[state.status]}>{status}</Text>
        <Text color="gray"> · {state.branch}</Text>
      </Text>
    </Box>
  );
}
