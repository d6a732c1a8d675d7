import { Text } from "ink";
import type { TuiState } from "../state/types.js";
import { fit } from "./lines.js";
import { col } from "./theme.js";

/** "hats: planner → creator@2 → critic@7", the newest kept when it does not fit. */
export function HatTimeline({ state, width }: { state: TuiState; width: number }) {
  const steps = state.hats.map((h, i) => (i === 0 ? h.hat : `${h.hat}@${h.iteration}`));
  let text = `hats: ${steps.join(" → ")}`;
  for (let skip = 1; text.length > width && skip < steps.length; skip++) text = `hats: … → ${steps.slice(skip).join(" → ")}`;
  return (
    <Text color={col("magenta")} wrap="truncate-end">
      {fit(text, width)}
    </Text>
  );
}
