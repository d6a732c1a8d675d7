// The mouse in the run view: the terminal reports buttons and the wheel (mode 1000) in SGR form
// (mode 1006: `ESC [ < button ; column ; row M`, m on release), which Ink passes on without its ESC
// as one unnamed key, "[<64;30;12M". Only the run view asks for it, and gives it back whenever it
// hands the terminal over (leaving, Ctrl-Z, $PAGER), so a shell never receives mouse reports.
// Text selection in the terminal then takes Shift (as in lazygit and vim with mouse=a).

export const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";
export const MOUSE_OFF = "\x1b[?1006l\x1b[?1000l";

export type Mouse = { type: "wheel"; lines: number } | { type: "click"; column: number; row: number } | { type: "other" };

/** The mouse report in a key's input (1-based column and row; a release or another button: other), or null when it is none. */
export function mouseOf(input: string): Mouse | null {
  const m = /^\[<(\d+);(\d+);(\d+)([Mm])$/.exec(input);
  if (!m) return null;
  const button = Number(m[1]);
  if (m[4] === "m") return { type: "other" };
  if (button === 64 || button === 65) return { type: "wheel", lines: button === 64 ? -3 : 3 };
  return button === 0 ? { type: "click", column: Number(m[2]), row: Number(m[3]) } : { type: "other" };
}
