// The steering prompt's line editor: a draft and a cursor. Keys may arrive several to one read
// (fast typing, a paste, a terminal that batches Backspace), so text input is applied one character
// at a time, with DEL and BS as Backspace and other control characters dropped.

export interface Draft {
  text: string;
  /** Index in `text` (0..text.length). */
  cursor: number;
}

export const EMPTY_DRAFT: Draft = { text: "", cursor: 0 };

export type EditKey = "backspace" | "delete" | "left" | "right" | "home" | "end" | "kill-start" | "kill-end" | "kill-word";

export function applyKey(d: Draft, key: EditKey): Draft {
  const { text, cursor } = d;
  switch (key) {
    case "backspace":
      return cursor === 0 ? d : { text: text.slice(0, cursor - 1) + text.slice(cursor), cursor: cursor - 1 };
    case "delete":
      return cursor >= text.length ? d : { text: text.slice(0, cursor) + text.slice(cursor + 1), cursor };
    case "left":
      return { text, cursor: Math.max(0, cursor - 1) };
    case "right":
      return { text, cursor: Math.min(text.length, cursor + 1) };
    case "home":
      return { text, cursor: 0 };
    case "end":
      return { text, cursor: text.length };
    case "kill-start":
      return { text: text.slice(cursor), cursor: 0 };
    case "kill-end":
      return { text: text.slice(0, cursor), cursor };
    case "kill-word": {
      const start = text.slice(0, cursor).replace(/\S+\s*$/, "").length;
      return { text: text.slice(0, start) + text.slice(cursor), cursor: start };
    }
  }
}

/** A keypress as Ink reports it (the flags the editor reads). */
export interface KeyPress {
  leftArrow: boolean;
  rightArrow: boolean;
  home: boolean;
  end: boolean;
  ctrl: boolean;
  meta: boolean;
  escape: boolean;
  return: boolean;
  backspace: boolean;
  delete: boolean;
}

/** A keypress applied to the draft: the new draft, or the prompt done (`submit` the text, or null for Esc). */
export function editDraft(draft: Draft, input: string, key: KeyPress): { draft: Draft } | { submit: string | null } {
  if (key.escape) return { submit: null };
  if (key.return) return { submit: draft.text.trim() };
  const edit = editKeyOf(input, key);
  if (edit) return { draft: applyKey(draft, edit) };
  // A lone Backspace (DEL or BS); several in one read come as text and are handled there.
  if ((key.backspace || key.delete) && !/[^\x7f\b]/.test(input)) return { draft: applyKey(draft, "backspace") };
  if (key.ctrl || key.meta) return { draft };
  // Enter in the same read as the text before it (fast typing, a script): type, then send.
  if (/[\r\n]$/.test(input)) return { submit: typeText(draft, input.replace(/[\r\n]+$/, "")).text.trim() };
  return { draft: typeText(draft, input) };
}

/** The editing key a keypress is, or null when it is text or nothing to the editor. */
function editKeyOf(input: string, key: KeyPress): EditKey | null {
  if (key.leftArrow) return "left";
  if (key.rightArrow) return "right";
  if (key.home || (key.ctrl && input === "a")) return "home";
  if (key.end || (key.ctrl && input === "e")) return "end";
  return key.ctrl ? (CTRL_EDITS[input] ?? null) : null;
}

const CTRL_EDITS: Record<string, EditKey | undefined> = { u: "kill-start", k: "kill-end", w: "kill-word", d: "delete" };

/** Typed (or pasted) input: printable characters insert at the cursor; DEL/BS erase; newlines become spaces. */
export function typeText(d: Draft, input: string): Draft {
  let draft = d;
  for (const ch of input) {
    if (ch === "\x7f" || ch === "\b") draft = applyKey(draft, "backspace");
    else if (ch === "\x15") draft = applyKey(draft, "kill-start");
    else if (ch === "\x17") draft = applyKey(draft, "kill-word");
    else if (ch === "\r" || ch === "\n" || ch === "\t") draft = insert(draft, " ");
    else if (ch < " " || (ch >= "\x7f" && ch <= "\x9f")) continue;
    else draft = insert(draft, ch);
  }
  return draft;
}

function insert(d: Draft, s: string): Draft {
  return { text: d.text.slice(0, d.cursor) + s + d.text.slice(d.cursor), cursor: d.cursor + s.length };
}

/**
 * What fits in `width` columns with the cursor visible: the draft scrolls horizontally, so the end
 * of a long draft (where one types) is always on screen; "…" marks text cut on either side.
 */
export function draftWindow(d: Draft, width: number): { before: string; at: string; after: string } {
  const w = Math.max(4, width);
  const cells = [...d.text, " "];
  const cursor = [...d.text.slice(0, d.cursor)].length;
  const start = cells.length <= w ? 0 : Math.max(0, Math.min(cursor - (w - 2), cells.length - w));
  const shown = cells.slice(start, start + w);
  const at = cursor - start;
  let before = shown.slice(0, at).join("");
  let after = shown.slice(at + 1).join("");
  if (start > 0) before = `…${before.slice(1)}`;
  if (start + w < cells.length) after = `${after.slice(0, -1)}…`;
  return { before, at: shown[at] ?? " ", after };
}
