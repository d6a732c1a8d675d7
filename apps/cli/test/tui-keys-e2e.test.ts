import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { hasTmux, Tmux } from "./support/tmux.js";
import { bin, openPane, runCommand, tuiRun, type Step } from "./support/tui-run.js";
import { until } from "./support/until.js";

// Issue 28, defect 3: keys that reach the view in one read (typed faster than it reads, pasted, sent
// by a script) each count, in order. Each burst goes to the pane in ONE write (a tmux paste buffer);
// then a key whose effect shows on the screen: keys are handled in order, so once it shows, the
// burst was handled (the key may even arrive in the burst's read). Every wait polls the screen.

let tmux: Tmux | null = null;
afterEach(() => tmux?.kill());

const writes = (n: number): Step[] => Array.from({ length: n }, (_, i) => ({ write: `n${i + 1}` }));
const scrolled = (screen: string) => Number(/Activity \(scrolled (\d+) up/.exec(screen)?.[1] ?? 0);

describe.runIf(requireOrSkip(hasTmux(), "tmux"))("keys read at once, in a terminal (tmux)", () => {
  it("run view: /abc searches for abc, [[[ goes back three iterations, Ctrl-A / Ctrl-E among text edit the steer, a pasted line break joins", async () => {
    const run = tuiRun([...writes(8), { hold: "a" }, { complete: true }]);
    tmux = new Tmux();
    const pane = openPane(tmux, "k", 100, 30, runCommand(run));
    await tmux.waitFor(pane, /Waiting for a\./);

    // "/abc" at once, then "?": typed into the search box, not a help opened by a lost "/".
    tmux.typeAtOnce(pane, "/abc");
    tmux.keys(pane, "-l", "?");
    const search = await tmux.waitFor(pane, /^\/abc\?|any key closes this help/m);
    expect(search).toMatch(/^\/abc\?/m);
    tmux.keys(pane, "Escape");
    await tmux.waitFor(pane, /\? help/);

    // Three [ one read each: three iterations back, each its own screen.
    const offsets: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = offsets.at(-1) ?? 0;
      tmux.keys(pane, "-l", "[");
      offsets.push(await movedFrom(pane, before));
    }
    expect(new Set(offsets).size).toBe(3);
    tmux.keys(pane, "End");
    await until("the view follows again", () => !/Activity \(scrolled/.test(tmux!.screen(pane)));
    // "[[[" at once, then "?" on its own: once the help shows, the three were handled.
    tmux.typeAtOnce(pane, "[[[");
    tmux.keys(pane, "-l", "?");
    await tmux.waitFor(pane, /any key closes this help/);
    tmux.keys(pane, "Escape");
    const back = await tmux.waitFor(pane, /\? help/);
    expect(scrolled(back)).toBe(offsets[2]);

    // Steering: Ctrl-A goes to the start, Ctrl-E to the end, between text in the same read.
    tmux.keys(pane, "End");
    tmux.keys(pane, "-l", ":");
    await tmux.waitFor(pane, /steer> /);
    tmux.typeAtOnce(pane, "world\x01hello \x05!");
    tmux.keys(pane, "Enter");
    const sent = await tmux.waitFor(pane, /steering queued for the next iteration: .*$/m);
    expect(sent).toMatch(/steering queued for the next iteration: hello world!/);

    // A pasted text of two lines: one message, and its "s" is text, not the stop key.
    tmux.keys(pane, "-l", ":");
    await tmux.waitFor(pane, /steer> /);
    tmux.typeAtOnce(pane, "first line\rs second\r");
    const pasted = await tmux.waitFor(pane, /steering queued for the next iteration: (?!hello).*$/m);
    expect(pasted).toMatch(/steering queued for the next iteration: first line s second/);
    expect(pasted).not.toMatch(/stopping/);

    run.release("a");
    await tmux.waitFor(pane, /\[exit 0\]/);
  });

  it("ls: f pressed several times in one read cycles the filter as many times", async () => {
    const run = tuiRun([{ complete: true }]);
    const done = await run.hatloop(run.plainRunArgs());
    expect(done.code, done.stderr).toBe(0);
    tmux = new Tmux();
    const ls = `${run.env} ${process.execPath} ${bin} ls; echo "[exit $?]"; sleep 600`;
    const filterOf = (screen: string) => /filter: (\w+)/.exec(screen)?.[1];

    // One f a read: the filters f goes through.
    const one = openPane(tmux, "one", 120, 30, ls);
    const filters = [filterOf(await tmux.waitFor(one, /✓ completed/))];
    for (let i = 0; i < 4; i++) {
      tmux.keys(one, "-l", "f");
      const shown = await tmux.waitFor(one, new RegExp(`filter: (?!${filters.at(-1)}\\b)\\w+`));
      filters.push(filterOf(shown));
    }
    expect(new Set(filters).size).toBe(5);

    // "fff" at once, then one f on its own: four steps from all, never one.
    const burst = openPane(tmux, "burst", 120, 30, ls);
    await tmux.waitFor(burst, /✓ completed/);
    tmux.typeAtOnce(burst, "fff");
    tmux.keys(burst, "-l", "f");
    // Four steps (the fix), or one or two (the burst lost, or all but one of it); the third step
    // shows between the burst and the f, so it is not waited for.
    const after = await tmux.waitFor(burst, new RegExp(`filter: (${filters[4]}|${filters[1]}|${filters[2]})\\b`));
    expect(filterOf(after)).toBe(filters[4]);
    tmux.keys(one, "q");
    tmux.keys(burst, "q");
    await tmux.waitFor(burst, /\[exit 0\]/);
  });
});

/** The activity's offset once it is no longer `from`. */
function movedFrom(pane: string, from: number): Promise<number> {
  return until(`the activity moves from ${from}`, () => {
    const offset = scrolled(tmux!.screen(pane));
    return offset !== from ? offset : undefined;
  });
}
