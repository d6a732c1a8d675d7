import { Text } from "ink";
import { checklistLines } from "./checklist-lines.js";
import { fit, windowOf } from "./lines.js";
import { Pane, type PaneProps } from "./Pane.js";
import { checkColor, col } from "./theme.js";

export function ChecklistPane({ state, width, height, focused, offset }: PaneProps) {
  const done = state.checklist.filter((i) => i.status === "done").length;
  const { visible } = windowOf(checklistLines(state, width), Math.max(0, height - 1), offset);
  return (
    <Pane title={`Checklist ${done}/${state.checklist.length}`} focused={focused} width={width} height={height}>
      {state.checklist.length === 0 ? <Text color={col("gray")}>(no items yet)</Text> : null}
      {visible.map((line) => (
        <Text key={line.key} color={col(checkColor[line.status])} bold={line.status === "failed"} wrap="truncate-end">
          {fit(line.text, width)}
        </Text>
      ))}
    </Pane>
  );
}
