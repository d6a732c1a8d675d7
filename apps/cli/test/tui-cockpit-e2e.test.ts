import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { hasTmux, Tmux } from "./support/tmux.js";
import { bin, openPane, runCommand, tuiRun } from "./support/tui-run.js";

// The cockpit's keys as a person uses them, in run and in watch: / searches the activity, n steps to
// an older match, Enter opens the match whole (the tool call's input, read from the stored
// messages: the event only carries a summary), Esc comes back. The model holds at a gate the test
// releases, so every wait polls the screen.

let tmux: Tmux | null = null;
afterEach(() => tmux?.kill());

describe.runIf(requireOrSkip(hasTmux(), "tmux"))("the TUI cockpit in a terminal (tmux)", () => {
  it("searches the activity, opens a match whole from the store, and returns, in run and watch", async () => {
    tmux = new Tmux();
    const run = tuiRun([{ write: "alpha" }, { write: "beta" }, { hold: "a" }, { complete: true }]);
    const pane = openPane(tmux, "run", 110, 32, runCommand(run));
    await tmux.waitFor(pane, /Waiting for a\./);
    const watch = openPane(tmux, "w", 110, 32, `${run.env} ${process.execPath} ${bin} watch ${await run.sessionId()}; sleep 600`);
    await tmux.waitFor(watch, /Waiting for a\./);

    for (const target of [pane, watch]) {
      tmux.keys(target, "/");
      await tmux.waitFor(target, /Enter find/);
      tmux.keys(target, "-l", "write_file");
      tmux.keys(target, "Enter");
      // The newest match first: beta's result, then its call, then alpha's.
      await tmux.waitFor(target, /match 1\/4/);
      tmux.keys(target, "n");
      await tmux.waitFor(target, /match 2\/4/);
      tmux.keys(target, "n");
      const found = await tmux.waitFor(target, /match 3\/4/);
      expect(found).toMatch(/▸.*write_file/);
      tmux.keys(target, "Enter");
      // The call's whole input is not in the event (a summary is): it comes from the stored messages.
      const opened = await tmux.waitFor(target, /"content": "alpha\\n"/);
      expect(opened).toMatch(/tool result · write_file .* iteration \d|tool call · write_file · iteration \d/);
      expect(opened).toMatch(/"path": "notes\/alpha\.txt"/);
      expect(opened).toContain("Esc back");
      tmux.keys(target, "Escape");
      const back = await tmux.waitFor(target, /match 3\/4/);
      expect(back).not.toContain('"content": "alpha\\n"');
      tmux.keys(target, "/");
      await tmux.waitFor(target, /Enter find/);
      tmux.keys(target, "-l", "nothing like this");
      tmux.keys(target, "Enter");
      await tmux.waitFor(target, /no match/);
      tmux.keys(target, "Escape");
      await tmux.waitFor(target, /Enter open {2}\/ search/);
    }
    run.release("a");
    await tmux.waitFor(pane, /\[exit 0\]/);
  });
});
