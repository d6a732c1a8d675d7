import { Text } from "ink";
import type { TuiState } from "../state/types.js";
import { fit, windowOf } from "./lines.js";
import { Pane } from "./Pane.js";
import { checkColor, checkMark, col } from "./theme.js";

export function ChecklistPane({
  state,
  width,
  height,
  focused,
  offset,
}: {
  state: TuiState;
  width: number;
  height: number;
  focused: boolean;
  offset: number;
}) {
  const done = state.checklist.filter((i) => i.status === "done").length;
  const { visible } = windowOf(state.checklist, Math.max(0, height - 1), offset);
  return (
    <Pane title={`Checklist ${done}/${state.checklist.length}`} focused={focused} width={width} height={height}>
      {state.checklist.length === 0 ? <Text color={col("gray")}>(no items yet)</Text> : null}
      {visible.map((item) => (
        <Text key={item.id} color={col(checkColor[item.status])} bold={item.status === "failed"} wrap="truncate-end">
          {fit(`${checkMark[item.status]} ${item.id}. ${item.description}${item.reason ? ` (${item.reason})` : ""}`, width)}
        </Text>
      ))}
    </Pane>
  );
}
