import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { hasTmux, Tmux } from "./support/tmux.js";
import { openPane, runCommand, tuiRun } from "./support/tui-run.js";

// In the terminal UI, what comes after the session's end (the pull request's outcome) is printed on
// the normal screen when the view closes, under the session's last line, where the user sees it.

let tmux: Tmux | null = null;
afterEach(() => tmux?.kill());

describe.runIf(requireOrSkip(hasTmux(), "tmux"))("--pr in the TUI", () => {
  it("a repository without a remote: the run completes and, after the view closes, says why no pull request was opened", async () => {
    const run = tuiRun([{ write: "a" }, { complete: true }]);
    tmux = new Tmux();
    const pane = openPane(tmux, "pr", 120, 30, runCommand(run, "--pr"));
    const screen = await tmux.waitFor(pane, /\[exit \d+\]/);
    expect(screen).toContain("[exit 0]");
    expect(screen).toMatch(
      /hatloop: completed: .*\n.*hatloop: no pull request: the repository has no remote "origin" \(git remote add origin URL, or set\s+pr\.remote\)/,
    );
  });
});
