import type { Keys } from "./view-state.js";

// Ink (6.8) reads stdin in chunks and cuts a chunk only at escape sequences: a run of plain
// characters that arrived in one read (fast typing, a busy event loop, a paste, a script) reaches
// useInput as ONE call, `input` "/abc" or "[[[" or "\x01\x05text", with no key flags. Compared with
// "/" or "[", such a run matched nothing and every key in it was lost. Here a call is cut back into
// the keys it holds, each described as Ink describes that key when it arrives alone, so the views'
// reducers see every key, in order.

/** One key: what Ink's useInput passes for it. */
export interface KeyEvent {
  input: string;
  key: Keys;
}

/** A key with no flag set: a plain character. */
export const NO_FLAGS: Keys = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageUp: false,
  pageDown: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  meta: false,
  tab: false,
  backspace: false,
  delete: false,
};

/**
 * What is left of an escape sequence Ink has no name for (an F13, a bracketed-paste mark): Ink
 * strips its ESC and passes the rest, "[25~" or "O5P", as input. It is one key, not "[" then more.
 * Their final is upper case or ~ $ ^, so "[[", "[]" or "[a" typed fast still count as two keys;
 * a mouse button's release report, "[<0;12;7m", ends in m.
 */
const UNNAMED_SEQUENCE = /^(?:\[\[?[\x30-\x3f]*[\x20-\x2f]*[@-Z~$^]|O[\x30-\x3f]*[@-Z]|\[<[\d;]*m)$/;

/** The keys in one useInput call, in the order they were typed. */
export function splitKeys(input: string, key: Keys): KeyEvent[] {
  const chars = [...input];
  if (chars.length <= 1 || hasFlag(key) || UNNAMED_SEQUENCE.test(input)) return [{ input, key }];
  return chars.map(keyOfChar);
}

function hasFlag(key: Keys): boolean {
  return (Object.keys(NO_FLAGS) as Array<keyof Keys>).some((flag) => key[flag]);
}

/** A character read alone, as Ink's parseKeypress and useInput report it. */
export function keyOfChar(ch: string): KeyEvent {
  const code = ch.codePointAt(0) ?? 0;
  if (ch === "\r") return { input: ch, key: { ...NO_FLAGS, return: true } };
  if (ch === "\t") return { input: "", key: { ...NO_FLAGS, tab: true } };
  if (ch === "\b") return { input: "", key: { ...NO_FLAGS, backspace: true } };
  if (ch === "\x7f") return { input: "", key: { ...NO_FLAGS, delete: true } };
  if (ch === "\x1b") return { input: "", key: { ...NO_FLAGS, escape: true, meta: true } };
  // Ink calls a lone LF "enter" but sets no flag, and passes it as input.
  if (ch === "\n") return { input: ch, key: NO_FLAGS };
  // Ctrl-A .. Ctrl-Z (and Ctrl-@): the letter, with ctrl.
  if (code <= 0x1a) return { input: String.fromCharCode(code + 0x60), key: { ...NO_FLAGS, ctrl: true } };
  return { input: ch, key: NO_FLAGS };
}
