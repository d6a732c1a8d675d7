import { shortId } from "@hatloop/core";
import { editDraft, EMPTY_DRAFT, type Draft } from "../components/line-editor.js";
import { parseDollars } from "../components/cost-lines.js";
import type { Keys } from "./view-state.js";

// The home screen's keys as a pure function of its state, so that several keys read at once
// (split-keys.ts) each move the state the previous one left: "fff" cycles the filter three times,
// "jjj" moves three rows, "a" then a typed answer and Enter answers. SessionList renders the state
// and performs the effects (the actions go through the CLI's own functions).

/** A session in the list, as far as the keys care. */
export interface ListedRow {
  id: string;
  status: string;
  live: boolean;
  /** The agent's open question (status waiting). */
  question?: string | null;
}

/** What the home screen asks the CLI to do to a session. */
export type ListAction =
  | { kind: "stop"; id: string }
  | { kind: "resume"; id: string }
  | { kind: "remove"; id: string }
  | { kind: "answer"; id: string; answer: string }
  | { kind: "raise-budget"; id: string; maxCostUsd: number };

/** What is open over the list: a prompt (answer, more budget), a question (remove?), the cost panel. */
type ListMode =
  | { type: "prompt"; action: "answer" | "raise"; id: string; draft: Draft; back: "cost" | null }
  | { type: "confirm-remove"; id: string }
  | { type: "cost"; id: string }
  | null;

export interface ListState {
  /** Row index in the filtered list, used when the selected session is not in it. */
  cursor: number;
  /** The session the cursor is on: it stays on it when rows refresh or the filter changes. */
  selectedId: string | null;
  /** Index in the filters. */
  filter: number;
  /** A session's details shown in place of the list (s, or Enter on a finished session). */
  details: { id: string; text: string; top: number } | null;
  mode: ListMode;
  /** What the last action did (or why it did nothing), until the next key. */
  message: { ok: boolean; text: string } | null;
}

export const INITIAL_LIST: ListState = { cursor: 0, selectedId: null, filter: 0, details: null, mode: null, message: null };

export interface ListContext<Row extends ListedRow> {
  rows: Row[];
  /** The status filters f cycles through; "all" shows every row. */
  filters: readonly string[];
  /** Rows the list shows at once (a page for PgUp / PgDn in the details). */
  visible: number;
  /** Details can be read and shown in place; otherwise showing a session leaves the list. */
  canShowDetails: boolean;
  /** The CLI can act on sessions (answer, pause, resume, budget, remove). */
  canAct: boolean;
}

export type ListEffect =
  | { type: "choose"; action: "watch" | "show"; id: string }
  | { type: "quit" }
  /** Read the session's details; they come back through withDetails. */
  | { type: "details"; id: string }
  | { type: "act"; action: ListAction };

export interface ListStep {
  state: ListState;
  effects: ListEffect[];
}

/** The rows the filter lets through, those waiting for an answer first (newest first within each). */
export function shownRows<Row extends ListedRow>(state: ListState, ctx: ListContext<Row>): Row[] {
  const filter = ctx.filters[state.filter] ?? "all";
  const rows = filter === "all" ? ctx.rows : ctx.rows.filter((r) => r.status === filter);
  return [...rows.filter((r) => r.status === "waiting"), ...rows.filter((r) => r.status !== "waiting")];
}

/** The cursor's row in the shown rows: the selected session's, or the cursor's index clamped. */
export function cursorIndex(state: ListState, shown: ListedRow[]): number {
  const at = state.selectedId ? shown.findIndex((r) => r.id === state.selectedId) : -1;
  return at >= 0 ? at : Math.min(state.cursor, Math.max(0, shown.length - 1));
}

export function withDetails(state: ListState, id: string, text: string): ListState {
  return { ...state, details: { id, text, top: 0 } };
}

export function withMessage(state: ListState, ok: boolean, text: string): ListState {
  return { ...state, message: { ok, text } };
}

const step = (state: ListState, ...effects: ListEffect[]): ListStep => ({ state, effects });
const act = (state: ListState, action: ListAction): ListStep => step(state, { type: "act", action });

export function reduceList<Row extends ListedRow>(from: ListState, input: string, key: Keys, ctx: ListContext<Row>): ListStep {
  if (key.ctrl && input === "c") return step(from, { type: "quit" });
  const state = from.message ? { ...from, message: null } : from;
  const { details, mode } = state;
  if (details) {
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
  if (mode?.type === "prompt") return promptKey(state, mode, input, key);
  if (mode?.type === "confirm-remove") {
    const back = { ...state, mode: null };
    return input === "y" || input === "Y" ? act(back, { kind: "remove", id: mode.id }) : step(back);
  }
  if (mode?.type === "cost") {
    if ((input === "+" || input === "b") && ctx.canAct) return step(raisePrompt(state, mode.id, "cost"));
    // Any other key closes the panel; q and Esc only close it (they quit from the list).
    return step({ ...state, mode: null });
  }
  if (input === "q" || key.escape) return step(state, { type: "quit" });
  const shown = shownRows(state, ctx);
  const index = cursorIndex(state, shown);
  if (key.upArrow || input === "k") return step(move(state, shown, index - 1));
  if (key.downArrow || input === "j") return step(move(state, shown, index + 1));
  if (key.home || input === "g") return step(move(state, shown, 0));
  if (key.end || input === "G") return step(move(state, shown, shown.length - 1));
  if (input === "f") return step({ ...state, filter: (state.filter + 1) % ctx.filters.length });
  const row = shown[index];
  if (!row) return step(state);
  const show = ctx.canShowDetails
    ? step(state, { type: "details", id: row.id })
    : step(state, { type: "choose", action: "show", id: row.id });
  if (key.return) return row.live ? step(state, { type: "choose", action: "watch", id: row.id }) : show;
  if (input === "w") return step(state, { type: "choose", action: "watch", id: row.id });
  if (input === "s") return show;
  if (input === "$") return step({ ...state, mode: { type: "cost", id: row.id } });
  if (!ctx.canAct) return step(state);
  if (input === "a")
    return row.status === "waiting"
      ? step({ ...state, mode: { type: "prompt", action: "answer", id: row.id, draft: EMPTY_DRAFT, back: null } })
      : step(withMessage(state, false, `session ${shortId(row.id)} asks nothing (a answers a waiting session)`));
  if (input === "p") return act(state, { kind: "stop", id: row.id });
  if (input === "r") return act(state, { kind: "resume", id: row.id });
  if (input === "b" || input === "+") return step(raisePrompt(state, row.id, null));
  if (input === "d" || key.delete) return step({ ...state, mode: { type: "confirm-remove", id: row.id } });
  return step(state);
}

function raisePrompt(state: ListState, id: string, back: "cost" | null): ListState {
  return { ...state, mode: { type: "prompt", action: "raise", id, draft: EMPTY_DRAFT, back } };
}

function promptKey(state: ListState, mode: Extract<ListMode, { type: "prompt" }>, input: string, key: Keys): ListStep {
  const edited = editDraft(mode.draft, input, key);
  if ("draft" in edited) return step({ ...state, mode: { ...mode, draft: edited.draft } });
  const back: ListState = { ...state, mode: mode.back === "cost" ? { type: "cost", id: mode.id } : null };
  if (!edited.submit) return step(back);
  if (mode.action === "answer") return act(back, { kind: "answer", id: mode.id, answer: edited.submit });
  const more = parseDollars(edited.submit);
  if (more === null) return step(withMessage(back, false, `not an amount of dollars: ${edited.submit} (type 5 or $2.50)`));
  return act(back, { kind: "raise-budget", id: mode.id, maxCostUsd: more });
}

function move(state: ListState, shown: ListedRow[], to: number): ListState {
  const cursor = Math.max(0, Math.min(shown.length - 1, to));
  return { ...state, cursor, selectedId: shown[cursor]?.id ?? null };
}
