// Text from the model, tools or the database must never drive the terminal: an escape sequence in
// it could write the clipboard (OSC 52), clear the screen, set the title or plant a hyperlink. Every
// printer passes content through here; its own styling is added afterwards. Control characters are
// shown as visible `\xNN` text instead of being dropped, so nothing is hidden from the reader either.

// C0 controls except tab and newline, DEL, and the 8-bit C1 controls (U+009B is a one-character CSI).
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` with every control character except tab and newline made visible; CRLF becomes LF. */
export function neutralizeControls(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029]/g;

/**
 * JSON text safe to print: JSON.stringify escapes C0 controls but not DEL and C1 (U+009B), which a
 * terminal still obeys; they become `\u00XX` escapes, so the value parses back unchanged.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
