import { cleanItem } from "../memory/items.js";

// The scratchpad (docs/design/context-layers.md) is a markdown document the agent rewrites as it works:
// Current Understanding, Current Plan ([x]/[ ] items), Key Decisions, Blockers, Last Action, and the
// "Compacted History" that summaries are appended to. Parsing is lenient (heading level, case and
// list style vary); unknown sections are kept by name.

interface PlanItem {
  text: string;
  done: boolean;
}

export interface Scratchpad {
  understanding: string[];
  plan: PlanItem[];
  decisions: string[];
  blockers: string[];
  lastAction: string;
  /** Kept for completeness; never put into a resume packet (it is a raw summary blob). */
  compactedHistory: string;
  /** Other sections by heading, in order. */
  other: Array<{ heading: string; body: string }>;
}

type Known = "understanding" | "plan" | "decisions" | "blockers" | "lastAction" | "compactedHistory";

const SECTION_NAMES: ReadonlyArray<[RegExp, Known]> = [
  [/^(?:current\s+)?understanding$/, "understanding"],
  [/^(?:current\s+)?plan$/, "plan"],
  [/^(?:key\s+)?decisions$/, "decisions"],
  [/^blockers?$/, "blockers"],
  [/^last\s+action$/, "lastAction"],
  [/^compacted\s+history$/, "compactedHistory"],
];
const NONE = /^(?:none|n\/a|nothing|no blockers?)\b/i;
const CHECKBOX = /^\s*(?:[-*+]|\d+[.)])?\s*\[([ xX])\]\s*(.*)$/;
const LIST_LINE = /^\s*(?:[-*+•]|\d+[.)])\s+/;

function sectionOf(heading: string): Known | null {
  const name = heading
    .toLowerCase()
    .replace(/[:*_`]/g, "")
    .trim();
  return SECTION_NAMES.find(([re]) => re.test(name))?.[1] ?? null;
}

/** Bullet or numbered items, or plain lines when the section has no list. */
function itemsOf(body: string): string[] {
  const lines = body.split(/\r?\n/).filter((l) => l.trim().length > 0);
  const listed = lines.filter((l) => LIST_LINE.test(l));
  return (listed.length > 0 ? listed : lines).map(cleanItem).filter((t) => t.length > 0 && !NONE.test(t));
}

function planOf(body: string): PlanItem[] {
  return body
    .split(/\r?\n/)
    .filter((l) => CHECKBOX.test(l) || LIST_LINE.test(l))
    .map((line) => {
      const box = CHECKBOX.exec(line);
      return box ? { text: cleanItem(box[2] ?? ""), done: box[1] !== " " } : { text: cleanItem(line), done: false };
    })
    .filter((item) => item.text.length > 0);
}

function splitSections(text: string): Array<{ heading: string; body: string }> {
  // A deeper, unknown heading inside a known section (e.g. "###" inside "## Compacted History") is part of its body.
  const sections: Array<{ heading: string; level: number; lines: string[] }> = [];
  for (const line of text.replace(/^\s*SCRATCHPAD:/, "").split(/\r?\n/)) {
    const match = /^\s*(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    const current = sections.at(-1);
    const folds =
      match !== null &&
      current !== undefined &&
      sectionOf(current.heading) !== null &&
      match[1]!.length > current.level &&
      sectionOf(match[2]!) === null;
    if (match && !folds) {
      sections.push({ heading: match[2]!, level: match[1]!.length, lines: [] });
    } else current?.lines.push(line);
  }
  return sections.map((s) => ({ heading: s.heading, body: s.lines.join("\n").trim() }));
}

export function parseScratchpad(text: string): Scratchpad {
  const pad: Scratchpad = { understanding: [], plan: [], decisions: [], blockers: [], lastAction: "", compactedHistory: "", other: [] };
  for (const { heading, body } of splitSections(text)) {
    const known = sectionOf(heading);
    if (known === "understanding" || known === "decisions" || known === "blockers") pad[known] = [...pad[known], ...itemsOf(body)];
    else if (known === "plan") pad.plan = [...pad.plan, ...planOf(body)];
    else if (known === "lastAction") pad.lastAction = body;
    else if (known === "compactedHistory") pad.compactedHistory = [pad.compactedHistory, body].filter(Boolean).join("\n\n");
    else if (!/scratchpad$/i.test(heading)) pad.other.push({ heading, body });
  }
  return pad;
}
