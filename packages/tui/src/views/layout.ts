import type { PaneSize } from "../components/activity-lines.js";

/** Where the panes go for a terminal size: two columns from 100 columns up, stacked below that. */
export interface Layout {
  twoColumns: boolean;
  bodyRows: number;
  sideWidth: number;
  mainWidth: number;
  checklistRows: number;
  /** The side column's files pane (the last checkpoint's files), with its title row; 0: none. */
  filesRows: number;
}

const HEADER_ROWS = 5; // header (2), context and cost (2), hat timeline (1)
const FOOTER_ROWS = 1;

/**
 * The side column (checklist, files, scratchpad) takes a third of a wide terminal, between 36 and 72
 * columns; the checklist is as tall as its wrapped lines (`checklistLines` at a width) up to a share
 * of the body, and the rows it does not need go to the scratchpad (beside) or the activity (stacked).
 * A tall two-column body (24 rows and more) also lists the last checkpoint's `filesLines` files, up
 * to a share of it, between the two.
 */
export function layoutFor(
  columns: number,
  rows: number,
  checklistLines: (width: number) => number,
  extraRows: number,
  filesLines = 0,
): Layout {
  const bodyRows = Math.max(4, rows - HEADER_ROWS - FOOTER_ROWS - extraRows);
  const twoColumns = columns >= 100;
  const sideWidth = twoColumns ? Math.max(36, Math.min(72, Math.floor(columns / 3))) : columns;
  const mainWidth = twoColumns ? columns - sideWidth - 1 : columns;
  const wanted = Math.max(2, checklistLines(sideWidth) + 1);
  const checklistRows = twoColumns
    ? Math.min(wanted, Math.max(3, Math.floor(bodyRows * 0.45)))
    : Math.min(wanted, Math.max(2, Math.floor(bodyRows * 0.3)));
  const filesRows = twoColumns && bodyRows >= 24 && filesLines > 0 ? Math.min(filesLines + 1, Math.max(3, Math.floor(bodyRows * 0.3))) : 0;
  return { twoColumns, bodyRows, sideWidth, mainWidth, checklistRows, filesRows };
}

/** The panes' sizes in lines of text (title rows not counted), which the keys scroll by. */
export interface Panes {
  activity: PaneSize;
  checklist: PaneSize;
  scratchpad: { rows: number };
  /** The body, where an opened entry shows (rows with its title line). */
  body: PaneSize;
  /** Where the activity's first line is on the screen (1-based, as the mouse reports it). */
  activityAt: { row: number; column: number };
}

/** Each pane's share of the layout: stacked, the activity gets what the checklist leaves; the scratchpad shows in its place. */
export function panesOf(layout: Layout, columns: number): Panes {
  const activityRows = Math.max(0, (layout.twoColumns ? layout.bodyRows : layout.bodyRows - layout.checklistRows) - 1);
  return {
    activity: { rows: activityRows, width: layout.twoColumns ? layout.mainWidth : columns },
    checklist: { rows: Math.max(0, layout.checklistRows - 1), width: layout.sideWidth },
    scratchpad: {
      rows: Math.max(0, (layout.twoColumns ? layout.bodyRows - layout.checklistRows - layout.filesRows : activityRows + 1) - 1),
    },
    body: { rows: layout.bodyRows, width: columns },
    activityAt: {
      row: HEADER_ROWS + (layout.twoColumns ? 0 : layout.checklistRows) + 2,
      column: layout.twoColumns ? layout.sideWidth + 2 : 1,
    },
  };
}
