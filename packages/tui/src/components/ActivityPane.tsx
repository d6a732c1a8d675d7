import { Text } from "ink";
import type { TuiState } from "../state/types.js";
import { streamingLines, visibleLines, type PaneSize } from "./activity-lines.js";
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

/** The activity offset that puts the start of the previous (-1) or next (+1) iteration at the top. */
export function jumpIteration(state: TuiState, { rows, width }: PaneSize, offset: number, direction: -1 | 1): number {
  // Count lines from the bottom to each iteration marker, then pick the nearest one past the view.
  const markers: number[] = [];
  let fromBottom = streamingLines(state, width).length;
  for (let e = state.activity.length - 1; e >= 0; e--) {
    const entry = state.activity[e]!;
    fromBottom += entry.text.split("\n").length;
    if (entry.text.startsWith("-- iteration ")) markers.push(Math.max(0, fromBottom - rows));
  }
  const candidates = direction === -1 ? markers.filter((m) => m > offset) : markers.filter((m) => m < offset).reverse();
  return candidates[0] ?? (direction === -1 ? offset : 0);
}
