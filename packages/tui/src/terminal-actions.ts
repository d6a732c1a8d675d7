import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// What the view hands to the terminal: a copy to its clipboard (OSC 52, which tmux, iTerm2, kitty,
// WezTerm and xterm take), and a text in $PAGER or a file in $EDITOR, run on the terminal itself
// while the view is suspended (lazygit's way): the view leaves the alternate screen and raw mode,
// the program runs, and the view comes back drawn whole.

export interface TerminalActions {
  copy(text: string): void;
  /** Shows `text` in $PAGER (less -R without one); null, or why it could not. */
  page(text: string): string | null;
  /** Opens `path` in $VISUAL or $EDITOR (vi without one); null, or why it could not. */
  edit(path: string): string | null;
}

/** The view's hooks around a program that takes the terminal: leave before it, come back after it. */
export interface Suspendable {
  leave(): void;
  back(): void;
}

export function terminalActions(view: Suspendable, stdout: NodeJS.WriteStream = process.stdout): TerminalActions {
  const run = (command: string, file: string): string | null => {
    view.leave();
    try {
      // Through the shell, as git runs them: "less -R" and "code --wait" are commands with arguments.
      const result = spawnSync("/bin/sh", ["-c", `${command} "$1"`, "sh", file], { stdio: "inherit" });
      if (result.error) return result.error.message;
      return result.status === 0 || result.status === null ? null : `${command} exited with ${result.status}`;
    } finally {
      view.back();
    }
  };
  return {
    copy: (text) => stdout.write(`\x1b]52;c;${Buffer.from(text).toString("base64")}\x07`),
    page: (text) => {
      const dir = mkdtempSync(join(tmpdir(), "hatloop-page-"));
      const file = join(dir, "entry.txt");
      writeFileSync(file, text);
      try {
        return run(process.env.PAGER || "less -R", file);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    edit: (path) => run(process.env.VISUAL || process.env.EDITOR || "vi", path),
  };
}
