import { isInjectedText, isSteeringText } from "../memory/real-user.js";
import { pathTree } from "./path-tree.js";
import type { Handoff } from "./types.js";

// The pieces of a resume packet. List sections can be shortened one item at a time by the budget
// loop in resume-packet.ts; their order in TRIM_ORDER says which loses items first.

export type ListSection = "openItems" | "decisions" | "remaining" | "blockers";

/** Lowest priority first: open items go before decisions, and so on. (Files are never trimmed.) */
export const TRIM_ORDER: readonly ListSection[] = ["openItems", "decisions", "remaining", "blockers"];

export const DEFAULT_LIMITS: Readonly<Record<ListSection, number>> = {
  openItems: 5,
  decisions: 10,
  remaining: 15,
  blockers: 6,
};

const TITLES: Readonly<Record<ListSection, string>> = {
  openItems: "Open items",
  decisions: "Key decisions",
  remaining: "Remaining",
  blockers: "Blockers",
};

/** The resume packet names this many changed paths at most; the full handoff names them all. */
const MAX_PACKET_PATHS = 200;

/** The first ones are kept when a list is shortened: plan order, paths, and decisions ranked by what later work depends on. */
const KEEP_NEWEST: ReadonlySet<ListSection> = new Set();
/** A decision is shown whole or not at all: one cut mid-sentence (or mid-number) misleads. */
const WHOLE_ITEMS: ReadonlySet<ListSection> = new Set(["decisions"]);
const WHOLE_ITEM_CHARS = 300;

/**
 * One line of at most `max` chars. Injected text (a summary, recalled context...) runs from its
 * marker to the end, so everything from the first line that starts with a marker is dropped.
 */
export function clean(text: string, max: number): string {
  const lines = text.split(/\r?\n/);
  const injectedAt = lines.findIndex((line) => isInjectedText(line) || isSteeringText(line));
  const kept = (injectedAt === -1 ? lines : lines.slice(0, injectedAt)).join(" ").replace(/\s+/g, " ").trim();
  return kept.length <= max ? kept : `${kept.slice(0, max - 1).trimEnd()}…`;
}

export function listItems(h: Handoff, section: ListSection): string[] {
  switch (section) {
    case "openItems":
      return h.open_items;
    case "decisions":
      return h.key_decisions;
    case "remaining":
      return h.remaining_items;
    case "blockers":
      return h.blocking_issues;
  }
}

/** The section's lines with `shown` items; a count line when some or all were left out. */
export function renderList(section: ListSection, items: readonly string[], shown: number, itemChars: number): string[] {
  const cleaned = items
    .map((item) => clean(item, WHOLE_ITEMS.has(section) ? WHOLE_ITEM_CHARS : itemChars))
    .filter((item) => item.length > 0);
  if (cleaned.length === 0) return [];
  const count = Math.min(shown, cleaned.length);
  const picked = KEEP_NEWEST.has(section) ? cleaned.slice(cleaned.length - count) : cleaned.slice(0, count);
  const omitted = cleaned.length - picked.length;
  if (picked.length === 0) return [`**${TITLES[section]}**: ${cleaned.length} (not listed)`];
  const more = omitted > 0 ? [`- (+${omitted} more${KEEP_NEWEST.has(section) ? ", older" : ""})`] : [];
  return [`**${TITLES[section]}**:`, ...picked.map((item) => `- ${item}`), ...more];
}

/**
 * Every changed path, up to MAX_PACKET_PATHS, as a directory tree (path-tree.ts): the one part of
 * the packet that may take it past its token target, because a resumed session must know them all.
 */
export function renderFiles(h: Handoff): string[] {
  const paths = [...h.modified_files, ...h.created_files.map((f) => `${f} (new)`), ...h.deleted_files.map((f) => `${f} (deleted)`)];
  if (paths.length === 0) return [];
  const shown = paths.slice(0, MAX_PACKET_PATHS);
  const more = paths.length > shown.length ? [`- (+${paths.length - shown.length} more: \`hatloop handoff\` lists them all)`] : [];
  return [`**Changed files** (${paths.length}):`, ...pathTree(shown).map((line) => `- ${line}`), ...more];
}

export function recallNote(options: { storedMessages?: number; recallTool: string }): string {
  const stored = options.storedMessages === undefined ? "" : ` (${options.storedMessages} messages)`;
  return `Older history is stored verbatim${stored} and searchable: call \`${options.recallTool}\` with keywords (a file, an error, a decision) to bring back earlier messages.`;
}
