import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { hasTmux, Tmux } from "./support/tmux.js";
import { bin, openPane, runCommand, tuiRun } from "./support/tui-run.js";

// Issue 28, defect 5's smaller ones, each as a person meets it: the real binary in a tmux pane, keys
// typed with send-keys, the screen read with capture-pane, every wait on a condition of the screen.

let tmux: Tmux | null = null;
afterEach(() => tmux?.kill());

const QUESTION =
  "Which licence should the new package ship under, given that the repository mixes MIT and Apache-2.0 code and the legal team has not said yet?";

describe.runIf(requireOrSkip(hasTmux(), "tmux"))("the TUI's smaller defects, in a terminal (tmux)", () => {
  it("defect 5: while waiting for an answer the header keeps runtime and cost, and ls filters on waiting", async () => {
    const run = tuiRun([{ ask: QUESTION }, { complete: true }]);
    tmux = new Tmux();
    const pane = openPane(tmux, "q", 80, 24, runCommand(run));
    const waiting = await tmux.waitFor(pane, /^\S waiting /m);
    const header = waiting.split("\n")[1]!;
    expect(header).toMatch(/^\S waiting · hat editor · iteration 1\/100 · \d+s\/4h00m · \$\d/);
    expect(waiting).toContain("Which licence"); // the question is on its own line, still shown

    const list = openPane(tmux, "l", 120, 20, `${run.env} ${process.execPath} ${bin} ls; sleep 600`);
    await tmux.waitFor(list, /filter: all/);
    tmux.keys(list, "f");
    await tmux.waitFor(list, /filter: running/);
    tmux.keys(list, "f");
    const filtered = await tmux.waitFor(list, /filter: waiting/);
    expect(filtered).toMatch(new RegExp(`${(await run.sessionId()).slice(0, 8)}.*waiting`));
    expect(filtered).toContain("1 of 1 session");
  });

  it("defect 5: the help fits the terminal and wraps its lines instead of cutting them", async () => {
    const run = tuiRun([{ hold: "a" }, { complete: true }]);
    tmux = new Tmux();
    const pane = openPane(tmux, "h", 80, 40, runCommand(run));
    await tmux.waitFor(pane, /Waiting for a\./);
    tmux.keys(pane, "?");
    const help = await tmux.waitFor(pane, /any key closes this help/);
    // The stop line is longer than the box: its end is on the next row, not cut with …
    expect(help).toMatch(/end the run\s*│?\s*\n?[│\s]*\(resumable; exit 130\)|end the run \(resumable; exit 130\)/);
    expect(help).not.toMatch(/…\s*│/);
    tmux.keys(pane, "Escape");
    run.release("a");
    await tmux.waitFor(pane, /\[exit 0\]/);
  });

  it("defect 5: at 40x12 the footer keeps ? help", async () => {
    const run = tuiRun([{ hold: "a" }, { complete: true }]);
    tmux = new Tmux();
    const pane = openPane(tmux, "n", 40, 12, runCommand(run));
    // The held command's call fills the few activity rows (wrapped, never cut); its text is above them.
    const screen = await tmux.waitFor(pane, /doing for \d+s: run_command/);
    const footer = screen
      .split("\n")
      .filter((l) => l.trim())
      .at(-1)!;
    expect(footer).toMatch(/^\? help/);
    tmux.keys(pane, "?");
    await tmux.waitFor(pane, /any key closes/);
    tmux.keys(pane, "Escape");
    run.release("a");
    await tmux.waitFor(pane, /\[exit 0\]/);
  });

  it("defect 5: at 60x18 the checklist items that do not fit are counted on a +N more line", async () => {
    const items = ["first item", "second item", "third item", "fourth item", "fifth item", "sixth item"];
    const run = tuiRun([{ plan: items }, { hold: "a" }]);
    tmux = new Tmux();
    const pane = openPane(tmux, "c", 60, 18, runCommand(run));
    const screen = await tmux.waitFor(pane, /Waiting for a\.[\s\S]*Checklist 0\/6|Checklist 0\/6[\s\S]*Waiting for a\./);
    const pane0 = screen.slice(screen.indexOf("Checklist 0/6"), screen.indexOf("Activity"));
    const shown = items.filter((item) => pane0.includes(item));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(items.length);
    // Where the list is cut, a line counts the items out of sight.
    expect(pane0).toContain(`+${items.length - shown.length} more`);
  });

  it("defect 5: a signal line shows after the model text that carried it, not above it", async () => {
    const run = tuiRun([{ plan: ["first item", "second item"] }, { hold: "a" }]);
    tmux = new Tmux();
    const pane = openPane(tmux, "s", 120, 40, runCommand(run));
    const screen = await tmux.waitFor(pane, /Waiting for a\./);
    const text = screen.indexOf("Planning 2 items.");
    const signal = screen.indexOf("checklist: 1. first item");
    expect(text).toBeGreaterThan(-1);
    // The first item's signal is read while the text streams: it shows below that text, as what it did.
    expect(signal).toBeGreaterThan(text);
    expect(screen.indexOf("checklist + 2. second item")).toBeGreaterThan(text);
  });
});
