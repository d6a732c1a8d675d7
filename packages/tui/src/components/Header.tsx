import { Box, Text } from "ink";
import { formatCost, formatDuration, shortId } from "@hatloop/core";
import type { TuiState } from "../state/types.js";
import { clean, fit } from "./lines.js";
import { col, monochrome, statusColor, statusMark } from "./theme.js";

/** The status reason's room in the header, so runtime and cost stay on the line. */
const MAX_REASON = 40;

/** How close a use is to its budget: fine, near (≥ 80%) or reached. */
function worry(value: number, limit: number | null | undefined): "fine" | "near" | "over" {
  if (!limit) return "fine";
  return value >= limit ? "over" : value >= limit * 0.8 ? "near" : "fine";
}
const worryColor = { fine: undefined, near: "yellow", over: "red" } as const;

/** Should I worry? Status, hat, iteration, runtime and cost against their budgets, model, branch. */
export function Header({ state, width, now, mode }: { state: TuiState; width: number; now: number; mode: "run" | "watch" }) {
  const elapsed = state.runtimeMs + (state.runningSince === null ? 0 : Math.max(0, now - state.runningSince));
  const b = state.budgets;
  // A waiting run's reason is the agent's question, shown whole on its own line above the footer:
  // here it pushed the runtime and cost off the line. Other reasons are short, and clipped if not.
  const reason = state.status === "waiting" ? null : state.statusReason;
  const status = clean(reason ? `${state.status} (${fit(reason, MAX_REASON)})` : state.status);
  const time = worry(elapsed, b.maxRuntimeMs);
  const cost = worry(state.costUsd, b.maxCostUsd);
  const iter = worry(state.iteration, b.maxIterations);
  const mono = monochrome();
  const mark = (w: "fine" | "near" | "over") => (mono && w !== "fine" ? "!" : "");
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {fit(`hatloop ${mode === "watch" ? "watch " : ""}· ${shortId(state.sessionId)} · ${state.task}`, width)}
      </Text>
      <Text wrap="truncate-end">
        <Text color={col(statusColor[state.status])} bold>
          {statusMark[state.status]} {status}
        </Text>{" "}
        · hat{" "}
        <Text color={col("magenta")} bold>
          {clean(state.hat)}
        </Text>{" "}
        · iteration{" "}
        <Text color={col(worryColor[iter])} bold={iter !== "fine"}>
          {state.iteration}
          {b.maxIterations ? `/${b.maxIterations}` : ""}
          {mark(iter)}
        </Text>{" "}
        ·{" "}
        <Text color={col(worryColor[time])} bold={time !== "fine"}>
          {formatDuration(elapsed)}
          {b.maxRuntimeMs ? `/${formatDuration(b.maxRuntimeMs)}` : ""}
          {mark(time)}
        </Text>{" "}
        ·{" "}
        <Text color={col(worryColor[cost])} bold>
          {formatCost(state.costUsd)}
          {b.maxCostUsd ? `/${formatCost(b.maxCostUsd)}` : ""}
          {mark(cost)}
        </Text>
        <Text color={col("gray")}>
          {" "}
          · {clean(state.model)} · {clean(state.branch)}
        </Text>
      </Text>
    </Box>
  );
}
