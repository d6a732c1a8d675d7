import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { hasTmux, Tmux } from "./support/tmux.js";
import { openPane, runCommand, tuiRun } from "./support/tui-run.js";
import { until } from "./support/until.js";

// How the run view reaches the terminal (issue 28, defects 2 and 4): the real binary in a tmux pane,
// resized with resize-window, its screen and scrollback read with capture-pane, the bytes it writes
// recorded with pipe-pane.

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

  it("every frame is drawn whole and in one synchronized update, rewriting only the rows that changed", async () => {
    const run = tuiRun([]);
    // A long streamed answer (a frame every 50 ms for several seconds), a turn that holds, the end.
    const words = Array.from({ length: 1_500 }, (_, i) => `word${i}`).join(" ");
    const hold = `while [ ! -e '${run.gate("a")}' ]; do sleep 0.05; done`;
    const turns = [
      { text: words, delay_ms: 4, chunk_chars: 8 },
      { text: "Waiting for a.", tools: [{ name: "run_command", input: { command: hold } }] },
      { text: "Done.", tools: [{ name: "task_complete", input: { summary: "streamed" } }] },
    ];
    writeFileSync(run.scenario, turns.map((t) => `${JSON.stringify(t)}\n`).join(""));
    tmux = new Tmux();
    // The run starts once the pane's output is being recorded, so the record holds every byte.
    const started = `while [ ! -e '${run.gate("recording")}' ]; do sleep 0.05; done; `;
    const pane = openPane(tmux, "f", 200, 60, runCommand(run, "", started));
    const record = join(run.root, "pane-output");
    tmux.run("pipe-pane", "-O", "-t", pane, `cat > ${record}`);
    run.release("recording");

    // Read the screen as fast as tmux answers while the text streams: a frame that erased the view
    // and drew it again showed, now and then, the top drawn and the rest blank (10 of 2,962 here).
    const header = /^hatloop · \w{8}/m.exec(await tmux.waitFor(pane, /word0 /))![0];
    let screens = 0;
    const half: string[] = [];
    for (let screen = tmux.screen(pane); !/Waiting for a\./.test(screen); screen = tmux.screen(pane)) {
      screens++;
      if (!whole(screen, 60)) half.push(screen);
    }
    expect(screens).toBeGreaterThan(100);
    expect(half).toEqual([]);

    run.release("a");
    await tmux.waitFor(pane, /\[exit 0\]/);
    const view = await until("the record holds the whole view", () => {
      const bytes = readFileSync(record, "utf8");
      const [enter, leave] = [bytes.indexOf(ENTER_ALT), bytes.indexOf(LEAVE_ALT)];
      return enter >= 0 && leave > enter && bytes.slice(enter + ENTER_ALT.length, leave);
    });
    const { frames, outside } = synchronizedUpdates(view);
    // Between the updates nothing is drawn: the cursor is hidden and shown, the mouse reports asked
    // for and given back, the end rings the terminal.
    const drawn = [SHOW_CURSOR, HIDE_CURSOR, MOUSE_ON, MOUSE_OFF].reduce((rest, seq) => rest.replaceAll(seq, ""), outside);
    expect(drawn.replace(NOTIFICATIONS, "")).toBe("");
    // Enough frames to judge by: text streamed for about 8 s draws 4 frames a second.
    expect(frames.length).toBeGreaterThan(25);
    // The first row never changes while the text streams: a frame that redraws everything writes it.
    const redrawn = frames.filter((frame) => frame.includes(header)).length;
    expect(redrawn).toBeLessThan(frames.length / 10);
  });
});

/** What render.tsx writes around the view: the alternate screen, entered with the cursor at home. */
const ENTER_ALT = "\x1b[?1049h\x1b[H";
const LEAVE_ALT = "\x1b[?1049l";
const BEGIN_UPDATE = "\x1b[?2026h";
const END_UPDATE = "\x1b[?2026l";
const SHOW_CURSOR = "\x1b[?25h";
const HIDE_CURSOR = "\x1b[?25l";
const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";
const MOUSE_OFF = "\x1b[?1006l\x1b[?1000l";
// eslint-disable-next-line no-control-regex -- OSC notifications (inside tmux in its passthrough) and the bell are what is removed
const NOTIFICATIONS = /(\x1bPtmux;\x1b\x1b\][^\x07]*\x07\x1b\\|\x1b\][^\x07]*\x07|\x07)+/g;

/** The bytes inside each synchronized update (DEC mode 2026), and what was written outside them. */
function synchronizedUpdates(bytes: string): { frames: string[]; outside: string } {
  const frames: string[] = [];
  let outside = "";
  let at = 0;
  for (let begin = bytes.indexOf(BEGIN_UPDATE, at); begin >= 0; begin = bytes.indexOf(BEGIN_UPDATE, at)) {
    const end = bytes.indexOf(END_UPDATE, begin);
    if (end < 0) break;
    outside += bytes.slice(at, begin);
    frames.push(bytes.slice(begin + BEGIN_UPDATE.length, end));
    at = end + END_UPDATE.length;
  }
  return { frames, outside: outside + bytes.slice(at) };
}

/** A whole frame: the header on the first row, the footer on the frame's last (one row short of the terminal). */
function whole(screen: string, rows: number): boolean {
  const lines = screen.split("\n");
  return /^hatloop · \w{8}/.test(lines[0] ?? "") && /\bp pause\b/.test(lines[rows - 2] ?? "");
}
