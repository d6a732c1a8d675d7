import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { hasTmux, Tmux } from "./support/tmux.js";
import { openPane, runCommand, tuiRun } from "./support/tui-run.js";
import { until } from "./support/until.js";

// Issue 28's readable transcript and outline, as a person uses them in a terminal: the model's
// Markdown rendered and wrapped (never cut), the live "doing X for N s" line, search matches marked,
// y copying an entry (OSC 52, which tmux takes into its buffer), o showing it in $PAGER with the
// view suspended and back, Z folding iterations, vim keys and the mouse scrolling, a click selecting. The model holds at a gate the
// test releases, so every wait polls the screen.

let tmux: Tmux | null = null;
afterEach(() => tmux?.kill());

const LONG_ITEM = "the clock is real and this item is long enough to wrap across two lines of the pane, ending at WRAPPED-END";
const MARKDOWN = ["## Findings", `- **${LONG_ITEM}**`, "- run `npm test` again", "```", "const clock = fake();", "```"].join("\n");

/** tmux's newest paste buffer ("" before the first). */
function buffer(tmux: Tmux): string {
  try {
    return tmux.run("show-buffer");
  } catch {
    return "";
  }
}

describe.runIf(requireOrSkip(hasTmux(), "tmux"))("the readable transcript in a terminal (tmux)", () => {
  it("renders Markdown wrapped, shows what runs for how long, marks matches, copies, pages, folds and scrolls with vim keys", async () => {
    tmux = new Tmux();
    const run = tuiRun([{ write: "alpha", text: MARKDOWN }, { write: "beta" }, { hold: "a" }, { complete: true }]);
    const pager = join(run.root, "pager.sh");
    writeFileSync(pager, '#!/bin/sh\ncat "$1"\necho PAGER-END\nread line\n');
    chmodSync(pager, 0o755);
    const pane = openPane(tmux, "t", 100, 28, runCommand({ ...run, env: `${run.env} PAGER=${pager}` }));
    await tmux.waitFor(pane, /Waiting for a\./);
    // tmux takes an application's OSC 52 into a buffer with set-clipboard on.
    tmux.run("set-option", "-g", "set-clipboard", "on");

    // What runs now and for how long, on the activity's title row; it ticks.
    const doing = await tmux.waitFor(pane, /Activity · doing for [1-9]\d*s: run_command while/);
    expect(doing).not.toMatch(/doing for 0s/);

    // Markdown: markers become layout; the long item wraps under its bullet, nothing is cut.
    const screen = tmux.screen(pane);
    expect(screen).toMatch(/ {3}Findings\s*$/m);
    expect(screen).not.toContain("## Findings");
    expect(screen).toMatch(/• the clock is real/);
    expect(screen).toContain("WRAPPED-END");
    expect(screen).toMatch(/run npm test again/);
    expect(screen).toMatch(/│ const clock = fake\(\);/);
    // The activity's lines (below the header and the panes' title row) are wrapped, none cut.
    expect(
      screen
        .split("\n")
        .slice(6)
        .filter((l) => l.includes("…")),
    ).toEqual([]);

    // A search marks its matches (inverse) where they show.
    tmux.keys(pane, "/");
    await tmux.waitFor(pane, /Enter find/);
    tmux.keys(pane, "-l", "clock");
    tmux.keys(pane, "Enter");
    await tmux.waitFor(pane, /match 1\/1/);
    // eslint-disable-next-line no-control-regex -- SGR sequences are what is read
    expect(tmux.styled(pane)).toMatch(/\x1b\[7m(\x1b\[[\d;]*m)*clock/);

    // y: the selected entry (the match) whole, to the clipboard (tmux keeps it as a buffer).
    tmux.keys(pane, "y");
    await until("the entry reaches tmux's buffer", () => buffer(tmux!).includes(`**${LONG_ITEM}**`));

    // o: the entry in $PAGER, the view suspended; back after it, drawn whole.
    tmux.keys(pane, "o");
    const paged = await tmux.waitFor(pane, /PAGER-END/);
    expect(paged).toContain("## Findings");
    expect(paged).not.toMatch(/\? help/);
    tmux.keys(pane, "Enter");
    const back = await tmux.waitFor(pane, /\? help/);
    expect(back).toMatch(/Waiting for a\./);
    expect(back).toMatch(/• the clock is real/);
    expect(tmux.alternate(pane)).toBe(true);
    tmux.keys(pane, "Escape");

    // Z folds every ended iteration to its header line; Z again unfolds.
    tmux.keys(pane, "Z");
    const folded = await tmux.waitFor(pane, /entries folded \(z\)/);
    expect(folded).not.toContain("WRAPPED-END");
    expect(folded).toMatch(/Waiting for a\./);
    tmux.keys(pane, "Z");
    await tmux.waitFor(pane, /WRAPPED-END/);

    // vim keys: k scrolls up a line, G follows again.
    tmux.keys(pane, "k");
    await tmux.waitFor(pane, /Activity \(scrolled 1 up/);
    tmux.keys(pane, "G");
    await tmux.waitFor(pane, /Activity · doing/);

    // The mouse: the view asks for SGR reports; the wheel scrolls, a click selects the line's entry.
    expect(tmux.run("display-message", "-p", "-t", pane, "#{mouse_sgr_flag}").trim()).toBe("1");
    tmux.keys(pane, "-l", "\x1b[<64;60;12M");
    await tmux.waitFor(pane, /Activity \(scrolled 3 up/);
    tmux.keys(pane, "-l", "\x1b[<65;60;12M");
    await tmux.waitFor(pane, /Activity · doing/);
    const lines = tmux.screen(pane).split("\n");
    const row = lines.findIndex((l) => /> write_file notes\/alpha\.txt/.test(l));
    const column = lines[row]!.indexOf("> write_file") + 1;
    tmux.keys(pane, "-l", `\x1b[<0;${column + 2};${row + 1}M\x1b[<0;${column + 2};${row + 1}m`);
    await tmux.waitFor(pane, /▸ > write_file notes\/alpha\.txt/);
    tmux.keys(pane, "Enter");
    await tmux.waitFor(pane, /tool call · write_file/);
    tmux.keys(pane, "Escape");

    run.release("a");
    await tmux.waitFor(pane, /\[exit 0\]/);
  });
});
