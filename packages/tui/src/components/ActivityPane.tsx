import { Text } from "ink";
import type { ActivityEntry, TuiState } from "../state/types.js";
import { fit } from "./lines.js";
import { Pane } from "./Pane.js";
import { toneColor } from "./theme.js";

interface Line {
  key: string;
  text: string;
  tone: ActivityEntry["tone"];
}

/**
 * The newest activity that fits, `offset` lines up from the bottom. Only the visible lines are
 * built: entries are walked from the end until the pane is full, so the cost of a render does not
 * depend on how long the session has run.
 */
export function activityLines(state: TuiState, width: number, rows: number, offset: number): Line[] {
  const lines: Line[] = [];
  const need = rows + Math.max(0, offset);
  if (state.streaming && state.streaming.text.trim()) {
    const live = state.streaming.text.split("\n").slice(-6);
    for (let i = live.length - 1; i >= 0 && lines.length < need; i--) lines.push({ key: `s${i}`, text: `  ${live[i]}`, tone: "text" });
  }
  for (let e = state.activity.length - 1; e >= 0 && lines.length < need; e--) {
    const entry = state.activity[e]!;
    const parts = entry.text.split("\n");
    for (let p = parts.length - 1; p >= 0 && lines.length < need; p--) {
      lines.push({ key: `${entry.id}:${p}`, text: entry.tone === "text" ? `  ${parts[p]}` : parts[p]!, tone: entry.tone });
    }
  }
  return lines.slice(offset, offset + rows).reverse().map((l) => ({ ...l, text: fit(l.text, width) }));
}

export function ActivityPane({ state, width, height, focused, offset }: { state: TuiState; width: number; height: number; focused: boolean; offset: number }) {
  const rows = Math.max(0, height - 1);
  const lines = activityLines(state, width, rows, offset);
  const title = offset > 0 ? `Activity (scrolled ${offset} up — End to follow)` : "Activity";
  return (
    <Pane title={title} focused={focused} width={width} height={height}>
      {lines.length === 0 ? <Text color="gray">(waiting for the first event)</Text> : null}
      {lines.map((line) => (
        <Text key={line.key} color={toneColor[line.tone]} wrap="truncate-end">
          {line.text}
        </Text>
      ))}
    </Pane>
  );
}

/** The activity offset that puts the start of the previous (-1) or next (+1) iteration at the top. */
export function jumpIteration(state: TuiState, rows: number, offset: number, direction: -1 | 1): number {
  // Count lines from the bottom to each iteration marker, then pick the nearest one past the view.
  const markers: number[] = [];
  let fromBottom = state.streaming ? Math.min(6, state.streaming.text.split("\n").length) : 0;
  for (let e = state.activity.length - 1; e >= 0; e--) {
    const entry = state.activity[e]!;
    fromBottom += entry.text.split("\n").length;
    if (entry.text.startsWith("-- iteration ")) markers.push(Math.max(0, fromBottom - rows));
  }
  const candidates = direction === -1 ? markers.filter((m) => m > offset) : markers.filter((m) => m < offset).reverse();
  return candidates[0] ?? (direction === -1 ? offset : 0);
}
