import { Text } from "ink";
import { visibleLines } from "./activity-lines.js";
import { fit } from "./lines.js";
import { Pane, type PaneProps } from "./Pane.js";
import { col, monochrome, toneColor, toneMark } from "./theme.js";

/** What the selection mark is on: an entry's id, or the response being streamed. */
export type Selected = number | "stream";

/**
 * The newest activity that fits, `offset` lines up from the bottom (already clamped by the view);
 * the lines of the `selected` entry (what Enter opens) are marked `▸`, in every colour mode.
 */
export function ActivityPane({ state, width, height, focused, offset, selected = null }: PaneProps & { selected?: Selected | null }) {
  const rows = Math.max(0, height - 1);
  const lines = visibleLines(state, { rows, width }, offset);
  const mono = monochrome();
  const title = offset > 0 ? `Activity (scrolled ${offset} up — End to follow)` : "Activity";
  return (
    <Pane title={title} focused={focused} width={width} height={height}>
      {lines.length === 0 ? <Text color={col("gray")}>(waiting for the first event)</Text> : null}
      {lines.map((line) => {
        const marked = selected !== null && (line.entry ?? "stream") === selected;
        const text = `${mono && line.key.endsWith(":0") ? (toneMark[line.tone] ?? "") : ""}${line.text}`;
        return (
          <Text
            key={line.key}
            color={col(toneColor[line.tone])}
            bold={marked || line.tone === "iteration" || (mono && line.tone === "error")}
            wrap="truncate-end"
          >
            {fit(marked ? (text.startsWith(" ") ? `▸${text.slice(1)}` : `▸ ${text}`) : text, width)}
          </Text>
        );
      })}
    </Pane>
  );
}
