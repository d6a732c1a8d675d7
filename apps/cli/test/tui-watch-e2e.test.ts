import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { hasTmux, Tmux } from "./support/tmux.js";
import { bin, openPane, runCommand, tuiRun, type TuiRun } from "./support/tui-run.js";
import { until } from "./support/until.js";

// Issue 28, defect 1: `watch` follows events only, so a run that dies without writing its end (kill -9,
// a second Ctrl-C: both leave the row running under a dead holder, and kill -9 is the one a test can
// time; the first Ctrl-C's pause often ends before a second can arrive) went on showing `▶ running` with a ticking clock. The real binary in two tmux panes:
// the run in one, `watch` in the other, the screen read with capture-pane, every wait on the screen.

let tmux: Tmux | null = null;
afterEach(() => tmux?.kill());

/** The header's runtime, without its budget ("12s" of "12s/4h00m"). */
const clockOf = (screen: string) => /iteration \d+\/\d+ · ([^\s/]+)/.exec(screen)?.[1];

/** A run held at its first command in pane "r", and `watch` of it in pane "w" showing the hold. */
async function runAndWatch(run: TuiRun & { scenario: string }): Promise<{ pane: string; watch: string; id: string }> {
  tmux = new Tmux();
  const pane = openPane(tmux, "r", 100, 30, runCommand(run));
  await tmux.waitFor(pane, /Waiting for a\./);
  const id = await run.sessionId();
  const watch = openPane(tmux, "w", 100, 30, `${run.env} ${process.execPath} ${bin} watch ${id}; echo "[exit $?]"; sleep 600`);
  await tmux.waitFor(watch, /▶ running[\s\S]*Waiting for a\./);
  return { pane, watch, id };
}

/** The watcher says the run is gone: interrupted, why, and how to resume; its clock no longer moves. */
async function expectShownGone(watch: string, id: string): Promise<void> {
  const gone = await tmux!.waitFor(watch, /the run ended without a word/);
  expect(gone).toMatch(/■ interrupted/);
  expect(gone).not.toMatch(/▶ running/);
  // The command may be cut at the pane's edge (the test's binary has a long path); the line after q says it whole.
  expect(gone).toContain("resume it with: ");
  // The clock stopped: while three of its ticks (one a second) go by, every frame shows the same time.
  const clock = clockOf(gone);
  const since = Date.now();
  await until("three former ticks gone by", () => {
    expect(clockOf(tmux!.screen(watch))).toBe(clock);
    return Date.now() - since > 3_000;
  });
  tmux!.keys(watch, "q");
  const left = await tmux!.waitFor(watch, /\[exit 0\]/);
  expect(left).toMatch(/· interrupted \(the run ended without a word\) ·/);
  expect(left).toMatch(new RegExp(`resume it with: .* resume ${id.slice(0, 8)}`));
}

describe.runIf(requireOrSkip(hasTmux(), "tmux"))("watch, when the run it follows dies (tmux)", () => {
  it("defect 1: after kill -9 of the run, watch shows it interrupted with the clock stopped and the way to resume", async () => {
    const run = tuiRun([{ hold: "a" }, { complete: true }]);
    const { watch, id } = await runAndWatch(run);
    const shown = JSON.parse((await run.hatloop(["show", id, "--json"])).stdout) as { pid: number };
    process.kill(shown.pid, "SIGKILL");
    await expectShownGone(watch, id);
    expect((await run.hatloop(["ls"])).stdout).toMatch(new RegExp(`${id.slice(0, 8)}.*interrupted`));
  });

  it("defect 1: the watcher's clock is the run's own, not one started when it attached", async () => {
    const run = tuiRun([{ write: "n1" }, { hold: "a" }, { complete: true }]);
    const { pane, watch } = await runAndWatch(run);
    // Both panes read at the same moment, twice (a tick may fall between the two captures).
    const seconds = (s: string | undefined) =>
      (s ?? "")
        .split(/[hms]/)
        .filter(Boolean)
        .reduce((n, part, i, all) => n + Number(part) * 60 ** (all.length - 1 - i), 0);
    const apart = await until("both clocks read", () => {
      const mine = clockOf(tmux!.screen(pane));
      const theirs = clockOf(tmux!.screen(watch));
      return mine && theirs ? Math.abs(seconds(mine) - seconds(theirs)) : undefined;
    });
    expect(apart).toBeLessThanOrEqual(1);
    run.release("a");
    await tmux!.waitFor(pane, /\[exit 0\]/);
  });

  it("defect 1: tokens in counts the whole prompt, cached or not (a scripted run's uncached input is 0)", async () => {
    const run = tuiRun([{ hold: "a" }, { complete: true }]);
    const { pane, watch } = await runAndWatch(run);
    // The run is held in its first iteration: no iteration has ended, so no usage.total event yet.
    await tmux!.waitFor(pane, /tokens in [1-9]/);
    for (const screen of [tmux!.screen(pane), tmux!.screen(watch)]) {
      const [, total, read, write] = /tokens in (\S+) \(cache read (\S+), write (\S+)\)/.exec(screen) ?? [];
      expect(total, screen).toBeDefined();
      expect(total).not.toBe("0");
      expect([read, write]).not.toEqual(["0", "0"]);
    }
    run.release("a");
    await tmux!.waitFor(pane, /\[exit 0\]/);
  });
});
