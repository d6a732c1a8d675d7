/** Where the panes go for a terminal size: two columns from 100 columns up, stacked below that. */
export interface Layout {
  twoColumns: boolean;
  bodyRows: number;
  sideWidth: number;
  mainWidth: number;
  checklistRows: number;
}

const HEADER_ROWS = 5; // header (2), context and cost (2), hat timeline (1)
const FOOTER_ROWS = 1;

/**
 * The side column (checklist, scratchpad) takes a third of a wide terminal, between 36 and 72
 * columns; the checklist is as tall as its wrapped lines (`checklistLines` at a width) up to a share
 * of the body, and the rows it does not need go to the scratchpad (beside) or the activity (stacked).
 */
export function layoutFor(columns: number, rows: number, checklistLines: (width: number) => number, extraRows: number): Layout {
  const bodyRows = Math.max(4, rows - HEADER_ROWS - FOOTER_ROWS - extraRows);
  const twoColumns = columns >= 100;
  const sideWidth = twoColumns ? Math.max(36, Math.min(72, Math.floor(columns / 3))) : columns;
  const mainWidth = twoColumns ? columns - sideWidth - 1 : columns;
  const wanted = Math.max(2, checklistLines(sideWidth) + 1);
  const checklistRows = twoColumns
    ? Math.min(wanted, Math.max(3, Math.floor(bodyRows * 0.45)))
    : Math.min(wanted, Math.max(2, Math.floor(bodyRows * 0.3)));
  return { twoColumns, bodyRows, sideWidth, mainWidth, checklistRows };
}
