import { capitalize } from "./text.js";
import { cleanItem, dedupeKeepNewest } from "./items.js";
import { linesOutsideCodeFences, stripMarkdown, truncateAtWord } from "./text.js";

// Open items, blockers and the next action, read mechanically from assistant text or scratchpad
// sections: unchecked "- [ ]" items, "TODO:" / "Blocker:" / "Next:" lines, and bullets under headings
// such as "Next steps", "Open items" or "Blockers". No LLM; lines in code fences are ignored.

export interface OpenItemsFound {
  openItems: string[];
  blockers: string[];
  /** The last explicit "next:" phrase, else the first item under a "Next steps" heading. */
  nextAction: string | null;
}

const MAX_ITEM_LENGTH = 200;

type Section = "open" | "blockers" | "next";

const HEADING =
  /^(?:#{1,6}\s*)?(next steps?|todo|to do|open (?:items|questions)|remaining(?: work| items| tasks)?|follow[- ]ups?|blockers?|blocked)\s*:?\s*$/i;
const UNCHECKED = /^\s*(?:[-*+]|\d+[.)])\s+\[ \]\s+(.+)$/;
const OPEN_LINE = /^(?:todo|fixme|open question|open item|remaining|still to do|pending)\s*[:-]\s*(.+)$/i;
const STILL_NEED = /^(?:i |we )?still need to\s+(.+)$/i;
const BLOCKER_LINE = /^(?:blockers?|blocked (?:by|on))\s*[:-]?\s*(.+)$/i;
const NEXT_PHRASE = /\bnext(?: steps?| action)?\s*:\s*(.+?)(?=(?<=[.!?])\s|$)/gi;
const NONE = /^(?:none|n\/a|nothing|no blockers?|no open items)\b/i;
const BULLET = /^\s*(?:[-*+•]|\d+[.)])\s+/;

function item(text: string): string | null {
  const cleaned = cleanItem(stripMarkdown(text)).replace(/^\[[xX ]\]\s*/, "");
  // "We should either:" leads into a list; it is not itself an item (the list's items are).
  if (cleaned.length < 3 || NONE.test(cleaned) || /[:,;]$/.test(cleaned)) return null;
  return truncateAtWord(cleaned, MAX_ITEM_LENGTH);
}

function capitalized(text: string): string {
  return capitalize(text);
}

function headingSection(plain: string): Section | null {
  const name = HEADING.exec(plain)?.[1]?.toLowerCase();
  if (name === undefined) return null;
  if (name.startsWith("block")) return "blockers";
  return name.startsWith("next") ? "next" : "open";
}

/** The last "next: ..." phrase of a text (the most recent intention), or null. */
export function extractNextAction(text: string): string | null {
  let last: string | null = null;
  for (const line of linesOutsideCodeFences(text)) {
    for (const match of stripMarkdown(line).matchAll(NEXT_PHRASE)) {
      const found = item(match[1] ?? "");
      if (found !== null) last = found;
    }
  }
  return last;
}

/** Open items, blockers and next action found in assistant text or a scratchpad. */
export function extractOpenItems(text: string): OpenItemsFound {
  const open: string[] = [];
  const blockers: string[] = [];
  const nextSteps: string[] = [];
  let section: Section | null = null;
  const push = (target: string[], raw: string) => {
    const found = item(raw);
    if (found !== null) target.push(capitalized(found));
  };
  for (const line of linesOutsideCodeFences(text)) {
    const plain = stripMarkdown(line).trim();
    if (plain.length === 0) {
      section = null;
      continue;
    }
    const heading = headingSection(plain);
    if (heading !== null) {
      section = heading;
      continue;
    }
    if (/^#{1,6}\s/.test(plain)) section = null;
    const unchecked = UNCHECKED.exec(line)?.[1];
    const bare = plain.replace(BULLET, "");
    if (unchecked !== undefined) push(section === "blockers" ? blockers : open, unchecked);
    else if (OPEN_LINE.test(bare)) push(open, OPEN_LINE.exec(bare)?.[1] ?? "");
    else if (STILL_NEED.test(bare)) push(open, STILL_NEED.exec(bare)?.[1] ?? "");
    else if (BLOCKER_LINE.test(bare)) push(blockers, BLOCKER_LINE.exec(bare)?.[1] ?? "");
    else if (section === "blockers") push(blockers, bare);
    else if (section !== null && BULLET.test(line)) push(section === "next" ? nextSteps : open, bare);
  }
  return {
    openItems: dedupeKeepNewest([...open, ...nextSteps]),
    blockers: dedupeKeepNewest(blockers),
    nextAction: extractNextAction(text) ?? nextSteps[0] ?? null,
  };
}
