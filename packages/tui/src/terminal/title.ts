import { useEffect } from "react";
import { useStdout } from "ink";

// The terminal's title (OSC 2, and OSC 0 for the icon name too) says where things stand, so that
// a tab, a window list or a tmux status line shows it while the view is hidden behind others.
// Written only when it changes, and only on a terminal. A title can hold no control characters.

function titleSequence(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters would end the sequence
  const safe = text.replace(/[\x00-\x1f\x7f-\x9f]/g, " ").slice(0, 120);
  return `\x1b]0;${safe}\x07\x1b]2;${safe}\x07`;
}

/** Sets `stream`'s title to what `read()` says, now and whenever `changes` fires, until the returned stop. */
export function followTitle(stream: NodeJS.WriteStream, read: () => string, changes: (listener: () => void) => () => void): () => void {
  if (!stream.isTTY) return () => {};
  let last = "";
  const update = () => {
    const text = read();
    if (text === last) return;
    last = text;
    stream.write(titleSequence(text));
  };
  update();
  return changes(update);
}

/** The title, for a view that renders it. */
export function useTerminalTitle(text: string): void {
  const { stdout } = useStdout();
  useEffect(() => {
    if (stdout.isTTY) stdout.write(titleSequence(text));
  }, [stdout, text]);
}
