import { execFileSync } from "node:child_process";

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

  keys(target: string, ...keys: string[]): void {
    this.run("send-keys", "-t", target, ...keys);
  }

  /** Waits until the pane's screen matches; returns that screen. */
  async waitFor(target: string, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
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
