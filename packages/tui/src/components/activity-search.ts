import type { TuiState } from "../state/types.js";

// `/` searches the activity: the entries whose text (or what opening them shows) contains the query,
// case-insensitively. Matches are counted from the newest, as the activity is read from the bottom.

/** The ids of the matching entries, newest first. */
export function matchesOf(state: TuiState, query: string): number[] {
  const q = query.toLowerCase();
  if (!q) return [];
  const ids: number[] = [];
  for (let e = state.activity.length - 1; e >= 0; e--) {
    const entry = state.activity[e]!;
    if (entry.text.toLowerCase().includes(q) || entry.detail?.body.toLowerCase().includes(q)) ids.push(entry.id);
  }
  return ids;
}

/** The match after `current` towards the oldest (+1) or the newest (-1); the newest when `current` is no match. */
export function stepMatch(matches: number[], current: number | null, direction: 1 | -1): number | null {
  if (matches.length === 0) return null;
  const at = current === null ? -1 : matches.indexOf(current);
  if (at === -1) return matches[0]!;
  return matches[Math.max(0, Math.min(matches.length - 1, at + direction))]!;
}
