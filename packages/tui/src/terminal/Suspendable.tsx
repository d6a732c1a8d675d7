import { Box, useStdin, useStdout } from "ink";
import { useEffect, useState, type ReactNode } from "react";
import { useKeys } from "../views/use-keys.js";
import { MOUSE_OFF, MOUSE_ON } from "./mouse.js";

// Ctrl-Z, as in any terminal program: the view reads keys in raw mode, so the terminal sends no
// SIGTSTP; the view leaves the alternate screen and raw mode, then stops itself with SIGTSTP. At
// `fg` (SIGCONT) it takes the screen and raw mode back and draws the whole view again: Ink draws
// only the rows that changed, and the shell wrote over all of them. To make every row "changed"
// the view is hidden (display none: mounted, its state kept) for one frame, then shown.

const ENTER_ALT = "\x1b[?1049h\x1b[H\x1b[?25l";
const LEAVE_ALT = "\x1b[?25h\x1b[?1049l";
/** Longer than a frame at 20 fps, so that the empty frame is written before the view comes back. */
const BLANK_MS = 120;

export function Suspendable({ children, alternate, mouse = false }: { children: ReactNode; alternate: boolean; mouse?: boolean }) {
  const { stdin, isRawModeSupported } = useStdin();
  const { stdout } = useStdout();
  const [blank, setBlank] = useState(false);
  useEffect(() => {
    if (!blank) return;
    const timer = setTimeout(() => setBlank(false), BLANK_MS);
    return () => clearTimeout(timer);
  }, [blank]);
  useKeys(({ input, key }) => {
    if (!(key.ctrl && input === "z") || !stdin.isTTY) return;
    process.once("SIGCONT", () => {
      stdin.setRawMode(true);
      if (alternate) stdout.write(ENTER_ALT + (mouse ? MOUSE_ON : ""));
      setBlank(true);
    });
    stdin.setRawMode(false);
    if (alternate) stdout.write((mouse ? MOUSE_OFF : "") + LEAVE_ALT);
    process.kill(process.pid, "SIGTSTP");
  }, isRawModeSupported === true);
  return <Box display={blank ? "none" : "flex"}>{children}</Box>;
}
