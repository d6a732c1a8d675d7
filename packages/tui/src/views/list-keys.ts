import type { Keys } from "./view-state.js";

// The `ls` dashboard's keys as a pure function of its state, so that several keys read at once
// (split-keys.ts) each move the state the previous one left: "fff" cycles the filter three times,
// "jjj" moves three rows. SessionList renders the state and performs the effects.

/** A session in the list, as far as the keys care. */
export interface ListedRow {
  id: string;
  status: string;
  live: boolean;
}

export interface ListState {
  /** Row index in the filtered list, used when the selected session is not in it. */
  cursor: number;
  /** The session the cursor is on: it stays on it when rows refresh or the filter changes. */
  selectedId: string | null;
  /** Index in the filters. */
  filter: number;
  /** A session's details shown in place of the list (s, or Enter on a finished session). */
  details: { id: string; text: string; top: number } | null;
}

export const INITIAL_LIST: ListState = { cursor: 0, selectedId: null, filter: 0, details: null };

export interface ListContext<Row extends ListedRow> {
  rows: Row[];
  /** The status filters f cycles through; "all" shows every row. */
  filters: readonly string[];
  /** Rows the list shows at once (a page for PgUp / PgDn in the details). */
  visible: number;
  /** Details can be read and shown in place; otherwise showing a session leaves the list. */
  canShowDetails: boolean;
}

export type ListEffect =
  | { type: "choose"; action: "watch" | "show"; id: string }
  | { type: "quit" }
  /** Read the session's details; they come back through withDetails. */
  | { type: "details"; id: string };

export interface ListStep {
  state: ListState;
  effects: ListEffect[];
}

/** The rows the filter lets through. */
export function shownRows<Row extends ListedRow>(state: ListState, ctx: ListContext<Row>): Row[] {
  const filter = ctx.filters[state.filter] ?? "all";
  return filter === "all" ? ctx.rows : ctx.rows.filter((r) => r.status === filter);
}

/** The cursor's row in the shown rows: the selected session's, or the cursor's index clamped. */
export function cursorIndex(state: ListState, shown: ListedRow[]): number {
  const at = state.selectedId ? shown.findIndex((r) => r.id === state.selectedId) : -1;
  return at >= 0 ? at : Math.min(state.cursor, Math.max(0, shown.length - 1));
}

export function withDetails(state: ListState, id: string, text: string): ListState {
  return { ...state, details: { id, text, top: 0 } };
}

const step = (state: ListState, ...effects: ListEffect[]): ListStep => ({ state, effects });

export function reduceList<Row extends ListedRow>(state: ListState, input: string, key: Keys, ctx: ListContext<Row>): ListStep {
  const { details } = state;
  if (details) {
    if (key.ctrl && input === "c") return step(state, { type: "quit" });
    const top = key.upArrow
      ? details.top - 1
      : key.downArrow
        ? details.top + 1
        : key.pageDown
          ? details.top + ctx.visible - 1
          : key.pageUp
            ? details.top - ctx.visible + 1
            : null;
    return step({ ...state, details: top === null ? null : { ...details, top: Math.max(0, top) } });
  }
  if (input === "q" || key.escape || (key.ctrl && input === "c")) return step(state, { type: "quit" });
  const shown = shownRows(state, ctx);
  const index = cursorIndex(state, shown);
  if (key.upArrow || input === "k") return step(move(state, shown, index - 1));
  if (key.downArrow || input === "j") return step(move(state, shown, index + 1));
  if (input === "f") return step({ ...state, filter: (state.filter + 1) % ctx.filters.length });
  const row = shown[index];
  if (!row) return step(state);
  const show = ctx.canShowDetails
    ? step(state, { type: "details", id: row.id })
    : step(state, { type: "choose", action: "show", id: row.id });
  if (key.return) return row.live ? step(state, { type: "choose", action: "watch", id: row.id }) : show;
  if (input === "w") return step(state, { type: "choose", action: "watch", id: row.id });
  if (input === "s") return show;
  return step(state);
}

function move(state: ListState, shown: ListedRow[], to: number): ListState {
  const cursor = Math.max(0, Math.min(shown.length - 1, to));
  return { ...state, cursor, selectedId: shown[cursor]?.id ?? null };
}
