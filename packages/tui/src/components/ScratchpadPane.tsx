import { Text } from "ink";
import { fit, windowOf } from "./lines.js";
import { Pane, type PaneProps } from "./Pane.js";
import { col } from "./theme.js";

/** The scratchpad from the top; scrolling (when focused) moves down through it. */
export function ScratchpadPane({ state, width, height, focused, offset }: PaneProps) {
  const lines = state.scratchpad ? state.scratchpad.split("\n") : [];
  const rows = Math.max(0, height - 1);
  const top = Math.min(Math.max(0, offset), Math.max(0, lines.length - rows));
  const { visible } = windowOf(lines.slice(top), rows, Math.max(0, lines.length - top - rows));
  return (
    <Pane title="Scratchpad" focused={focused} width={width} height={height}>
      {lines.length === 0 ? <Text color={col("gray")}>(empty)</Text> : null}
      {visible.map((line, i) => (
        <Text key={i} color={col(line.startsWith("#") ? "cyan" : undefined)} bold={line.startsWith("#")} wrap="truncate-end">
          {fit(line, width)}
        </Text>
      ))}
    </Pane>
  );
}
