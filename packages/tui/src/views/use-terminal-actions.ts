import { useStdin, useStdout } from "ink";
import { useMemo } from "react";
import { terminalActions, type TerminalActions } from "../terminal-actions.js";
import { MOUSE_OFF, MOUSE_ON } from "../terminal/mouse.js";

// The run view's way to the terminal: copy, $PAGER, $EDITOR. Only on a terminal (raw mode); the
// view is on the alternate screen there (render.tsx), which it leaves for the program and takes
// back after it, drawn whole (Ink's write clears its frame and draws it again).

const ENTER_ALT = `\x1b[?1049h\x1b[2J\x1b[H${MOUSE_ON}`;
const LEAVE_ALT = `${MOUSE_OFF}\x1b[?1049l`;

export function useTerminalActions(): TerminalActions | undefined {
  const { stdin, isRawModeSupported } = useStdin();
  const { stdout, write } = useStdout();
  return useMemo(
    () =>
      isRawModeSupported
        ? terminalActions(
            {
              leave: () => {
                stdout.write(LEAVE_ALT);
                stdin.setRawMode(false);
              },
              back: () => {
                stdin.setRawMode(true);
                stdout.write(ENTER_ALT);
                write("");
              },
            },
            stdout,
          )
        : undefined,
    [stdin, stdout, write, isRawModeSupported],
  );
}
