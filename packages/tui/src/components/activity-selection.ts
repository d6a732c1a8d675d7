import { withoutSignals } from "../state/signals.js";
import type { EntryDetail, TuiState } from "../state/types.js";
import { lineAt, type ActivityShape } from "./activity-lines.js";
import type { Selected } from "./ActivityPane.js";

// The selected activity entry is the one Enter opens: a search's match while it is still in the
// buffer, otherwise the entry at the bottom of the view (the newest one while following).

export function selectionOf(state: TuiState, explicit: number | null, offset: number, shape: ActivityShape): Selected | null {
  if (explicit !== null && state.activity.some((e) => e.id === explicit)) return explicit;
  const bottom = lineAt(state, shape, offset);
  return bottom ? (bottom.entry ?? "stream") : null;
}

/** What opening the selection shows: the entry's detail (its text when it has none), or the response being streamed. */
export function detailFor(state: TuiState, selected: Selected | null): EntryDetail | null {
  if (selected === "stream")
    return state.streaming
      ? { title: `model text · iteration ${state.streaming.iteration} · streaming`, body: withoutSignals(state.streaming.text) }
      : null;
  const entry = state.activity.find((e) => e.id === selected);
  return entry ? (entry.detail ?? { title: `activity · iteration ${entry.iteration}`, body: entry.text }) : null;
}
