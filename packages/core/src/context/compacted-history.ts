import { MARKERS } from "@hatloop/context";

// The scratchpad's "Compacted History": one entry per compaction, each starting with
// MARKERS.summary. Bounded: the oldest entries go first (they stay in the checkpoints and the
// stored messages), so the scratchpad — shown at every hat change — never grows without limit.

const MAX_HISTORY_CHARS = 16_000;

export function appendCompactedHistory(scratchpad: string, entry: string, maxChars = MAX_HISTORY_CHARS): string {
  const { before, entries } = split(scratchpad);
  const kept = [...entries, entry.trim()];
  while (kept.length > 1 && kept.join("\n\n").length > maxChars) kept.shift();
  return [before.trimEnd(), ...kept].filter(Boolean).join("\n\n");
}

/** The entries alone, as injected into the live context after a compaction. */
export function compactedHistoryOf(scratchpad: string): string {
  return split(scratchpad).entries.join("\n\n");
}

function split(scratchpad: string): { before: string; entries: string[] } {
  const parts = scratchpad.split(new RegExp(`(?=^${escape(MARKERS.summary)})`, "m"));
  const before = parts[0]!.startsWith(MARKERS.summary) ? "" : parts.shift()!;
  return { before, entries: parts.map((p) => p.trim()).filter(Boolean) };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The agent's new scratchpad with hatloop's Compacted History kept: a SCRATCHPAD signal replaces the
 * agent's own sections, never the record of what compactions removed (entries the agent copied
 * into its new text are not added twice).
 */
export function replaceScratchpad(previous: string, next: string): string {
  const kept = split(previous).entries.filter((entry) => !next.includes(entry));
  return kept.reduce((pad, entry) => `${pad.trimEnd()}\n\n${entry}`, next.trimEnd());
}
