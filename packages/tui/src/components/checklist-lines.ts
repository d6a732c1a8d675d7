import type { TuiState } from "../state/types.js";
import { wordWrap } from "./lines.js";
import { checkMark } from "./theme.js";

// The checklist as lines at a width: an item too long for its column wraps under its own text
// (indented past the status mark) instead of being cut, so every item reads whole.

export interface ChecklistLine {
  key: string;
  text: string;
  status: TuiState["checklist"][number]["status"];
}

export function checklistLines(state: TuiState, width: number): ChecklistLine[] {
  const lines: ChecklistLine[] = [];
  for (const item of state.checklist) {
    const mark = `${checkMark[item.status]} `;
    const text = `${item.id}. ${item.description}${item.reason ? ` (${item.reason})` : ""}`.replace(/\s+/g, " ");
    const parts = wordWrap(text, width - mark.length);
    parts.forEach((part, i) =>
      lines.push({ key: `${item.id}:${i}`, text: `${i === 0 ? mark : " ".repeat(mark.length)}${part}`, status: item.status }),
    );
  }
  return lines;
}
