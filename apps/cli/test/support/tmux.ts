import { execFileSync } from "node:child_process";
import { HUNG_MS } from "./hatloop.js";

// Drives terminal programs as a person would: tmux runs them in a real pseudo-terminal,
// send-keys types, capture-pane reads the screen. One private tmux server per test run.

export function hasTmux(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export class Tmux {
  private readonly socket = `hatloop-test-${process.pid}-${Date.now()}`;

  run(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }

  screen(target: string): string {
    return this.run("capture-pane", "-p", "-t", target);
  }

  /** The screen with its escape sequences (colours, bold, inverse). */
  styled(target: string): string {
    return this.run("capture-pane", "-e", "-p", "-t", target);
  }

  /** The pane's scrollback and screen (the normal screen's, whatever is shown). */
  history(target: string): string {
    return this.run("capture-pane", "-p", "-S", "-", "-t", target);
  }

  /** Whether the program in the pane is on the alternate screen. */
  alternate(target: string): boolean {
    return this.run("display-message", "-p", "-t", target, "#{alternate_on}").trim() === "1";
  }

  keys(target: string, ...keys: string[]): void {
    this.run("send-keys", "-t", target, ...keys);
  }

  /**
   * Types `text` in ONE write to the pane (a tmux paste buffer, without bracketed paste), so the
   * program reads all its keys at once, as it does when they are typed faster than it reads.
   */
  typeAtOnce(target: string, text: string): void {
    this.run("set-buffer", "-b", "at-once", "--", text);
    this.run("paste-buffer", "-d", "-r", "-b", "at-once", "-t", target);
  }

  /** Waits until the pane's screen matches; returns that screen. */
  async waitFor(target: string, pattern: RegExp): Promise<string> {
    const deadline = Date.now() + HUNG_MS;
    let screen = "";
    while (Date.now() < deadline) {
      screen = this.screen(target);
      if (pattern.test(screen)) return screen;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`pane ${target} never showed ${pattern}; last screen:\n${screen}`);
  }

  kill(): void {
    try {
      this.run("kill-server");
    } catch {
      // already gone
    }
  }
}

/** The colours set on a captured screen (SGR 30-38, 40-48, 90-97, 100-107; not bold, inverse or the default-colour resets). */
export function colourCodes(styled: string): string[] {
  // eslint-disable-next-line no-control-regex -- SGR sequences are what is read
  const sequences = styled.match(/\x1b\[[\d;]*m/g) ?? [];
  return sequences.filter((seq) =>
    seq
      .slice(2, -1)
      .split(";")
      .map(Number)
      .some((n) => (n >= 30 && n <= 38) || (n >= 40 && n <= 48) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107)),
  );
}
