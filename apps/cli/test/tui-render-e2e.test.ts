import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { hasTmux, Tmux } from "./support/tmux.js";
import { openPane, runCommand, tuiRun } from "./support/tui-run.js";
import { until } from "./support/until.js";

// How the run view reaches the terminal (issue 28, defects 2 and 4): the real binary in a tmux pane,
// resized with resize-window, its screen and scrollback read with capture-pane.

let tmux: Tmux | null = null;
afterEach(() => tmux?.kill());

const EARLIER = 60;
const earlierLines = Array.from({ length: EARLIER }, (_, i) => `earlier-output-${i}`);
const keptOf = (history: string) => earlierLines.filter((line) => history.includes(line)).length;

describe.runIf(requireOrSkip(hasTmux(), "tmux"))("the run view's drawing, in a terminal (tmux)", () => {
  it("a resize during the run keeps the user's scrollback, on the alternate screen and after it", async () => {
    const run = tuiRun([{ hold: "a" }, { complete: true }]);
    tmux = new Tmux();
    const pane = openPane(tmux, "r", 100, 30, runCommand(run, "", `for w in ${earlierLines.join(" ")}; do echo $w; done; `));
    await tmux.waitFor(pane, /Waiting for a\./);
    expect(tmux.alternate(pane)).toBe(true);
    // On the alternate screen, what scrolled off the normal screen is the pane's history.
    const scrolledOff = keptOf(tmux.history(pane));
    expect(scrolledOff).toBeGreaterThan(0);
    // Smaller, then larger: a shorter terminal is what made Ink clear the whole terminal, CSI 3J included.
    for (const [columns, rows] of [
      [80, 20],
      [120, 36],
    ] as const) {
      tmux.run("resize-window", "-t", "r", "-x", String(columns), "-y", String(rows));
      await until(`the view redrawn at ${columns}x${rows}`, () => whole(tmux!.screen(pane), rows));
      expect(keptOf(tmux.history(pane))).toBe(scrolledOff);
    }
    run.release("a");
    await tmux.waitFor(pane, /\[exit 0\]/);
    expect(tmux.alternate(pane)).toBe(false);
    expect(keptOf(tmux.history(pane))).toBe(EARLIER);
  });
});

/** A whole frame: the header on the first row, the footer on the frame's last (one row short of the terminal). */
function whole(screen: string, rows: number): boolean {
  const lines = screen.split("\n");
  return /^hatloop · \w{8}/.test(lines[0] ?? "") && /\bp pause\b/.test(lines[rows - 2] ?? "");
}
