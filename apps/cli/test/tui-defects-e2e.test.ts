import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { colourCodes, hasTmux, Tmux } from "./support/tmux.js";
import { bin, openPane, runCommand, tuiRun, type Step } from "./support/tui-run.js";
import { until } from "./support/until.js";
import { HATLOOP_RE, runHatloop } from "./support/hatloop.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Issue 15's defects, each as a person meets it: the real binary in a tmux pane, keys typed with
// send-keys, the screen read with capture-pane. The scripted model holds at gates the test releases,
// so nothing depends on how fast this machine is: every wait polls the screen for a condition.

let tmux: Tmux | null = null;
afterEach(() => tmux?.kill());

const writes = (n: number, from = 1): Step[] => Array.from({ length: n }, (_, i) => ({ write: `n${from + i}` }));
const rowsOf = (screen: string) => screen.split("\n");

describe.runIf(requireOrSkip(hasTmux(), "tmux"))("the TUI's defects, in a terminal (tmux)", () => {
  it("defect 1: ? help stays in place while the clock ticks, shows its q line, and says detach when watching", async () => {
    const run = tuiRun([{ hold: "a" }, { complete: true }]);
    tmux = new Tmux();
    const pane = openPane(tmux, "h", 80, 24, runCommand(run));
    await tmux.waitFor(pane, /Waiting for a\./);
    tmux.keys(pane, "?");
    const help = await tmux.waitFor(pane, /any key closes this help/);
    const clock = /iteration 1\/100 · (\S+)/.exec(help)![1];
    // The clock ticks (a new frame every second): the frame must not move down the screen.
    const later = await until("the clock ticks with the help open", () => {
      const s = tmux!.screen(pane);
      return /iteration 1\/100 · (\S+)/.exec(s)?.[1] !== clock ? s : undefined;
    });
    const ticked = await until("two more ticks", () => {
      const s = tmux!.screen(pane);
      return /iteration 1\/100 · (\S+)/.exec(s)?.[1] !== /iteration 1\/100 · (\S+)/.exec(later)?.[1] ? s : undefined;
    });
    expect(rowsOf(ticked)[0]).toMatch(/^hatloop · \w{8} · write the notes/);
    expect(ticked.match(/hatloop · \w{8}/g)).toHaveLength(1);
    expect(ticked).toMatch(/q\s+quit: asks, then the loop pauses with a checkpoint/);
    expect(ticked).toContain("any key closes this help");

    // Watching from another pane: q detaches there, and the help says so.
    const watch = openPane(
      tmux,
      "w",
      80,
      24,
      `${run.env} ${process.execPath} ${bin} watch ${await run.sessionId()}; echo "[exit $?]"; sleep 600`,
    );
    await tmux.waitFor(watch, /hatloop watch · \w{8}/);
    tmux.keys(watch, "?");
    const watchHelp = await tmux.waitFor(watch, /any key closes this help/);
    expect(watchHelp).toMatch(/q Ctrl-C\s+detach \(the loop goes on where it runs\)/);
    expect(watchHelp).not.toMatch(/q\s+quit: asks/);
    tmux.keys(watch, "Escape");
    await until("the help closes", () => !/any key closes this help/.test(tmux!.screen(watch)));
    tmux.keys(watch, "q");
    await tmux.waitFor(watch, /^detached: the loop goes on\n\[exit 0\]/m);
    tmux.keys(pane, "Escape");
    run.release("a");
    await tmux.waitFor(pane, /\[exit 0\]/);
  });

  it("defect 2: Home and PgUp stop at the oldest line, and a view scrolled up stays put while events arrive", async () => {
    const run = tuiRun([...writes(8), { hold: "a" }, ...writes(3, 9), { hold: "b" }, { complete: true }]);
    tmux = new Tmux();
    const pane = openPane(tmux, "s", 80, 24, runCommand(run));
    await tmux.waitFor(pane, /Waiting for a\./);
    tmux.keys(pane, "Home");
    const top = await tmux.waitFor(pane, /Activity \(scrolled \d+ up/);
    const offset = Number(/scrolled (\d+) up/.exec(top)![1]);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(500);
    expect(top).toMatch(/-- iteration 1 · editor --/);
    tmux.keys(pane, "PageUp");
    tmux.keys(pane, "Up");
    tmux.keys(pane, "?"); // a key that changes the screen, so the two before it were handled
    await tmux.waitFor(pane, /any key closes this help/);
    tmux.keys(pane, "Escape");
    const still = await tmux.waitFor(pane, /Activity \(scrolled \d+ up/);
    expect(Number(/scrolled (\d+) up/.exec(still)![1])).toBe(offset);
    expect(still).toMatch(/-- iteration 1 · editor --/);

    // Scrolled up a little, new events arrive below: the lines on screen stay where they are.
    tmux.keys(pane, "End");
    await tmux.waitFor(pane, /^ Activity(\s*$| · )/m);
    tmux.keys(pane, "PageUp");
    const before = await tmux.waitFor(pane, /Activity \(scrolled \d+ up/);
    const shown = (s: string) => rowsOf(s).slice(8, 21).join("\n");
    run.release("a");
    const after = await tmux.waitFor(pane, /· iteration 13\/100 ·/);
    expect(shown(after)).toBe(shown(before));
    expect(Number(/scrolled (\d+) up/.exec(after)![1])).toBeGreaterThan(Number(/scrolled (\d+) up/.exec(before)![1]));
    tmux.keys(pane, "End");
    await tmux.waitFor(pane, /Waiting for b\./);
    run.release("b");
    await tmux.waitFor(pane, /\[exit 0\]/);
  });

  it("defect 3: the view draws on the alternate screen, so earlier output and scrollback survive, with a summary at exit", async () => {
    const run = tuiRun([{ hold: "a" }, ...writes(2), { complete: true }]);
    tmux = new Tmux();
    const earlier = Array.from({ length: 40 }, (_, i) => `earlier-output-${i}`).join(" ");
    const pane = openPane(tmux, "a", 100, 30, runCommand(run, "", `for w in ${earlier}; do echo $w; done; `));
    await tmux.waitFor(pane, /Waiting for a\./);
    expect(tmux.alternate(pane)).toBe(true);
    run.release("a");
    const done = await tmux.waitFor(pane, /\[exit 0\]/);
    expect(tmux.alternate(pane)).toBe(false);
    expect(done).toMatch(/^hatloop · \w{8} · completed \(task complete: quality gates passed\) · iteration 4/m);
    // Every earlier line is still there, on the screen or in the scrollback: nothing was erased.
    const history = tmux.history(pane);
    for (let i = 0; i < 40; i++) expect(history).toContain(`earlier-output-${i}`);
    expect(history).not.toMatch(/Activity/);
  });

  it("defect 4: what is left is current: completed (not running), no Quit question, the prompt below the summary", async () => {
    const run = tuiRun([{ hold: "a" }, { hold: "b" }, { complete: true }]);
    tmux = new Tmux();
    const pane = openPane(tmux, "q", 100, 30, runCommand(run));
    await tmux.waitFor(pane, /Waiting for a\./);
    tmux.keys(pane, "q");
    await tmux.waitFor(pane, /Quit\? The loop stops now/);
    tmux.keys(pane, "n");
    await until("the question closes", () => !/Quit\?/.test(tmux!.screen(pane)));
    run.release("a");
    await tmux.waitFor(pane, /Waiting for b\./);
    tmux.keys(pane, "q");
    await tmux.waitFor(pane, /Quit\? The loop stops now/);
    tmux.keys(pane, "y");
    const ended = await tmux.waitFor(pane, /\[exit \d+\]/);
    expect(ended).not.toMatch(/Quit\?/);
    expect(ended).not.toMatch(/running/);
    expect(ended).toMatch(/^hatloop · \w{8} · paused \(interrupted\)/m);
    // The exit line (what the shell prints next) is on its own line below the summary.
    const lines = rowsOf(ended).filter((l) => l.trim());
    expect(lines.at(-1)).toBe("[exit 130]");

    // And a run that completes says so.
    const run2 = tuiRun([...writes(2), { complete: true }]);
    const pane2 = openPane(tmux, "c", 100, 30, runCommand(run2));
    const done = await tmux.waitFor(pane2, /\[exit \d+\]/);
    expect(done).toMatch(/^hatloop · \w{8} · completed/m);
    expect(done).toMatch(/\[exit 0\]/);
  });

  it("defect 5: steering is a line editor: Esc discards, Backspaces in one read, long drafts scroll, typed while paused goes with the next iteration", async () => {
    const run = tuiRun([{ hold: "a" }, ...writes(2), { complete: true }]);
    tmux = new Tmux();
    const pane = openPane(tmux, "e", 80, 24, runCommand(run));
    await tmux.waitFor(pane, /Waiting for a\./);
    // Pause, and let the held iteration finish: the loop now waits before iteration 2.
    tmux.keys(pane, "p");
    await tmux.waitFor(pane, /pausing before the next iteration/);
    run.release("a");
    await tmux.waitFor(pane, /paused \(paused by the user\)/);

    // Esc discards the draft: ":" then Enter afterwards sends nothing.
    tmux.keys(pane, ":");
    await tmux.waitFor(pane, /steer> /);
    tmux.keys(pane, "-l", "throw this away");
    await tmux.waitFor(pane, /steer> throw this away/);
    tmux.keys(pane, "Escape");
    await until("the prompt closes", () => !/steer> /.test(tmux!.screen(pane)));
    tmux.keys(pane, ":");
    await tmux.waitFor(pane, /steer> /);
    tmux.keys(pane, "Enter");
    await until("the prompt closes", () => !/steer> /.test(tmux!.screen(pane)));
    expect(tmux.screen(pane)).not.toMatch(/steering queued/);

    // Backspaces in the same read as the text (as a fast typist or a paste sends them) edit the draft.
    tmux.keys(pane, ":");
    await tmux.waitFor(pane, /steer> /);
    tmux.keys(pane, "-l", "keep it smal\x7f\x7fall ");
    await tmux.waitFor(pane, /steer> keep it small/);
    // A long draft scrolls sideways: the end being typed stays visible at 80 columns.
    tmux.keys(pane, "-l", `${"and-more-words ".repeat(8)}THE-END`);
    const typing = await tmux.waitFor(pane, /steer> .*THE-END/);
    expect(typing).toMatch(/steer> …/);
    tmux.keys(pane, "Enter");
    await tmux.waitFor(pane, /steering queued for the next iteration: keep it small and-more-words/);
    tmux.keys(pane, "p");
    await tmux.waitFor(pane, /\[exit 0\]/);

    // The message went with iteration 2, the first started after it: before that iteration's answer.
    const logs = await run.hatloop(["logs", await run.sessionId(), "--json"]);
    const events = logs.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; iteration: number; data: { text?: string } });
    const steer = events.findIndex((e) => e.type === "steer");
    expect(events[steer]!.data.text).toBe(`keep it small ${"and-more-words ".repeat(8)}THE-END`);
    expect(events[steer]!.iteration).toBe(2);
    expect(steer).toBeLessThan(events.findIndex((e) => e.type === "model.response" && e.iteration === 2));
    expect(steer).toBeGreaterThan(events.findIndex((e) => e.type === "iteration.start" && e.iteration === 2));
  });

  it("defect 6: Ctrl-C interrupts with the steer prompt, the help or the quit question open (and detaches a watcher)", async () => {
    tmux = new Tmux();
    const cases = [
      { name: "steer", open: ":", shows: /steer> / },
      { name: "help", open: "?", shows: /any key closes this help/ },
      { name: "quit", open: "q", shows: /Quit\?/ },
    ];
    const runs = cases.map((c) => ({ ...c, run: tuiRun([{ hold: "a" }, { complete: true }]) }));
    for (const c of runs) openPane(tmux, c.name, 80, 24, runCommand(c.run));
    for (const c of runs) {
      const pane = `${c.name}:0.0`;
      await tmux.waitFor(pane, /Waiting for a\./);
      tmux.keys(pane, c.open);
      await tmux.waitFor(pane, c.shows);
      tmux.keys(pane, "C-c");
      const ended = await tmux.waitFor(pane, /\[exit \d+\]/);
      expect(ended).toMatch(/paused \(interrupted\)/);
      expect(ended).toMatch(/\[exit 130\]/);
    }
    // A watcher with its help open: Ctrl-C detaches.
    const run = tuiRun([{ hold: "a" }, { complete: true }]);
    openPane(tmux, "r", 80, 24, runCommand(run));
    await tmux.waitFor("r:0.0", /Waiting for a\./);
    const watch = openPane(
      tmux,
      "w",
      80,
      24,
      `${run.env} ${process.execPath} ${bin} watch ${await run.sessionId()}; echo "[exit $?]"; sleep 600`,
    );
    await tmux.waitFor(watch, /hatloop watch/);
    tmux.keys(watch, "?");
    await tmux.waitFor(watch, /any key closes this help/);
    tmux.keys(watch, "C-c");
    await tmux.waitFor(watch, /^detached: the loop goes on\n\[exit 0\]/m);
    run.release("a");
    await tmux.waitFor("r:0.0", /\[exit 0\]/);
  });

  it("defect 7: watch draws the session's hat timeline from its first hat, and it goes on across the resume", async () => {
    const home = mkdtempSync(join(tmpdir(), "hatloop-tui-hats-"));
    const vars = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") };
    // The demo: planner, creator, critic, editor, with a budget pause and a resume in the middle.
    const demo = await runHatloop(["demo", "--plain"], vars);
    expect(demo.code, demo.stderr).toBe(0);
    const id = (JSON.parse((await runHatloop(["ls", "--json"], vars)).stdout) as Array<{ id: string }>)[0]!.id;
    tmux = new Tmux();
    const watch = openPane(
      tmux,
      "w",
      120,
      30,
      `env -u CI -u FORCE_COLOR HATLOOP_HOME=${home} HATLOOP_CONFIG=${vars.HATLOOP_CONFIG} TERM=xterm-256color ${process.execPath} ${bin} watch ${id}; echo "[exit $?]"; sleep 600`,
    );
    const screen = await tmux.waitFor(watch, /hats: /);
    expect(screen).toMatch(/hats: planner → creator@2 → critic@7 → editor@9\s*$/m);
    tmux.keys(watch, "q");
    const left = await tmux.waitFor(watch, /\[exit 0\]/);
    expect(left).toMatch(/^hats: planner → creator@2 → critic@7 → editor@9$/m);
  });

  it("defect 8: paused agrees everywhere, the clock runs while paused, the budget hint works, and NO_COLOR keeps focus, zone and errors", async () => {
    const run = tuiRun([{ hold: "a" }, { write: "x" }, { complete: true }]);
    tmux = new Tmux();
    const pane = openPane(tmux, "p", 100, 30, runCommand(run));
    await tmux.waitFor(pane, /Waiting for a\./);
    tmux.keys(pane, "p");
    run.release("a");
    const paused = await tmux.waitFor(pane, /paused \(paused by the user\)/);
    const id = await run.sessionId();
    const show = await run.hatloop(["show", id]);
    expect(show.stdout).toMatch(/^status +paused \(paused by the user\)/m);
    const ls = await run.hatloop(["ls", "--plain"]);
    expect(ls.stdout).toMatch(new RegExp(`${id.slice(0, 8)} +paused`));
    // The clock goes on while paused (as show's runtime and the runtime budget do).
    const clock = (s: string) => /paused by the user\) · hat editor · iteration 1\/100 · (\S+)/.exec(s)?.[1];
    await until("the clock moves while paused", () => clock(tmux!.screen(pane)) !== clock(paused));

    // NO_COLOR: a watcher shows no colour, yet the focused pane is inverse, the zone is named,
    // the status has its symbol and errors are marked.
    const watch = openPane(tmux, "nc", 100, 30, `${run.env} NO_COLOR=1 ${process.execPath} ${bin} watch ${id}; sleep 600`);
    await tmux.waitFor(watch, /q detach/);
    const styled = tmux.styled(watch);
    expect(colourCodes(styled)).toEqual([]); // no foreground or background colour
    // eslint-disable-next-line no-control-regex -- the escape sequences are what is checked
    expect(styled).toMatch(/\x1b\[[\d;]*7[\d;]*m Activity/); // the focused pane's title, inverse
    expect(styled).toMatch(/\d+% green/);
    expect(styled).toMatch(/‖ paused/);
    tmux.keys(watch, "q");
    tmux.keys(pane, "p");
    await tmux.waitFor(pane, /\[exit 0\]/);

    // A budget pause's hint names the flag that resume needs, and it is accepted.
    const budget = tuiRun([...writes(3), { complete: true }]);
    const plain = await budget.hatloop([
      "run",
      "write the notes",
      "--repo",
      budget.repo,
      "--hat",
      "editor",
      "--model",
      `scripted:${budget.scenario}`,
      "--max-iterations",
      "1",
      "--plain",
    ]);
    const hint = new RegExp(`continue with: ${HATLOOP_RE} (resume \\S+ .+)$`, "m").exec(plain.stdout + plain.stderr)?.[1];
    expect(hint).toMatch(/--max-iterations 10$/);
    const resumed = await budget.hatloop([...hint!.split(" "), "--plain"]);
    expect(resumed.code, resumed.stderr).toBe(0);
  });
});
