import { Text } from "ink";
import { checklistLines, type ChecklistLine } from "./checklist-lines.js";
import { fit, windowOf } from "./lines.js";
import { Pane, type PaneProps } from "./Pane.js";
import { checkColor, col } from "./theme.js";

type Row = ChecklistLine | { key: string; more: number };

/** Items with a line outside the window (above or below it). */
function itemsIn(lines: ChecklistLine[]): number {
  return new Set(lines.map((l) => l.key.split(":")[0])).size;
}

/**
 * The window of checklist lines that fits `height` rows: where items are cut (above the window,
 * below it, or both) a `+N more` row stands in for the line there, N the items out of sight.
 */
function checklistRows(lines: ChecklistLine[], height: number, offset: number): Row[] {
  if (lines.length <= height) return lines;
  if (height <= 1) return height === 1 ? [{ key: "more-all", more: itemsIn(lines) }] : [];
  const { visible } = windowOf(lines, height, offset);
  const start = lines.indexOf(visible[0]!);
  const end = start + visible.length;
  const cutAbove = start > 0;
  const cutBelow = end < lines.length;
  const from = cutAbove ? start + 1 : start;
  const to = cutBelow ? end - 1 : end;
  const rows: Row[] = lines.slice(from, to);
  const shown = new Set(rows.map((l) => ("text" in l ? l.key.split(":")[0] : "")));
  const hidden = (part: ChecklistLine[]) => itemsIn(part.filter((l) => !shown.has(l.key.split(":")[0])));
  if (cutAbove) rows.unshift({ key: "more-above", more: Math.max(1, hidden(lines.slice(0, from))) });
  if (cutBelow) rows.push({ key: "more-below", more: Math.max(1, hidden(lines.slice(to))) });
  return rows;
}

export function ChecklistPane({ state, width, height, focused, offset }: PaneProps) {
  const done = state.checklist.filter((i) => i.status === "done").length;
  const rows = checklistRows(checklistLines(state, width), Math.max(0, height - 1), offset);
  return (
    <Pane title={`Checklist ${done}/${state.checklist.length}`} focused={focused} width={width} height={height}>
      {state.checklist.length === 0 ? <Text color={col("gray")}>(no items yet)</Text> : null}
      {rows.map((row) =>
        "more" in row ? (
          <Text key={row.key} color={col("gray")} wrap="truncate-end">
            {fit(`+${row.more} more`, width)}
          </Text>
        ) : (
          <Text key={row.key} color={col(checkColor[row.status])} bold={row.status === "failed"} wrap="truncate-end">
            {fit(row.text, width)}
          </Text>
        ),
      )}
    </Pane>
  );
}
