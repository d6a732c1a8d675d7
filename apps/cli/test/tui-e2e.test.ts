import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { runHatloop } from "./support/hatloop.js";
import { colourCodes, hasTmux, Tmux } from "./support/tmux.js";

// The TUI as a person sees it: the real binary in a tmux pane (a real terminal), keys sent with
// send-keys, the screen read with capture-pane; and a second pane watching the same session.

const bin = new URL("../dist/bin.js", import.meta.url).pathname;
let tmux: Tmux | null = null;
afterEach(() => tmux?.kill());

describe.runIf(requireOrSkip(hasTmux(), "tmux"))("the TUI in a terminal (tmux)", () => {
  it("runs the demo: hat changes, the gauge, pause and continue, steering, a watcher in another pane, quit", async () => {
    const home = mkdtempSync(join(tmpdir(), "hatloop-tui-"));
    // Ink renders only a final frame when CI is set: the person at this terminal is not CI.
    const env = `env -u CI -u FORCE_COLOR HATLOOP_HOME=${home} HATLOOP_CONFIG=${join(home, "none.json")} TERM=xterm-256color`;
    tmux = new Tmux();
    tmux.run(
      "new-session",
      "-d",
      "-s",
      "hl",
      "-x",
      "150",
      "-y",
      "40",
      `${env} ${process.execPath} ${bin} demo; echo "[exit $?]"; sleep 60`,
    );
    const run = "hl:0.0";

    await tmux.waitFor(run, /hatloop · \w{8} · slugify/);
    tmux.keys(run, "p");
    const paused = await tmux.waitFor(run, /paused \(paused by the user\)/);
    expect(paused).toMatch(/context .*\d+% (green|gauge|warn|compact) [\d.]+k?\/6\.0k tokens/);

    // A second terminal attaches to the running session.
    tmux.run("split-window", "-v", "-t", "hl", `${env} ${process.execPath} ${bin} watch; sleep 60`);
    const watch = "hl:0.1";
    const watched = await tmux.waitFor(watch, /hatloop watch · \w{8} · slugify/);
    expect(watched).toContain("q detach");

    tmux.keys(run, ":");
    await tmux.waitFor(run, /steer>/);
    tmux.keys(run, "-l", "keep the fix to one regex");
    tmux.keys(run, "Enter");
    await tmux.waitFor(run, /steering queued for the next iteration: keep the fix to one regex/);
    tmux.keys(run, "p");
    await tmux.waitFor(run, /continuing/);

    // The steering reaches the loop with the next iteration; both panes show it, and the hat changes.
    await tmux.waitFor(run, /steering: keep the fix to one regex/);
    await tmux.waitFor(watch, /steering: keep the fix to one regex/);
    await tmux.waitFor(run, /hats: planner → creator@\d+/);
    await tmux.waitFor(watch, /hats: planner → creator@\d+/);
    // Pause again (so the scripted run cannot finish first); the gauge shows the context filling up.
    tmux.keys(run, "p");
    const second = await tmux.waitFor(run, /paused \(paused by the user\)/);
    expect(second).toMatch(/context █+[░┊]* [1-9]\d*% (green|gauge|warn|compact) [\d.]+k\/6\.0k tokens/);
    // Then quit: the loop stops with a checkpoint.
    tmux.keys(run, "q");
    await tmux.waitFor(run, /Quit\? The loop stops now and pauses with a checkpoint/);
    tmux.keys(run, "y");
    const ended = await tmux.waitFor(run, /\[exit \d+\]/);
    expect(ended).toMatch(/hatloop: paused: interrupted/);
    expect(ended).toMatch(/\[exit 130\]/);

    // The watcher saw the run end, then detaches with q.
    await tmux.waitFor(watch, /paused \(interrupted\)/);
    tmux.keys(watch, "q");
  });

  it("lists sessions interactively, watches a finished one, and honours NO_COLOR", async () => {
    const home = mkdtempSync(join(tmpdir(), "hatloop-tui-ls-"));
    const env = `env -u CI -u FORCE_COLOR HATLOOP_HOME=${home} HATLOOP_CONFIG=${join(home, "none.json")} TERM=xterm-256color`;
    const demo = await runHatloop(["demo", "--plain"], { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") });
    expect(demo.code, demo.stderr).toBe(0);
    tmux = new Tmux();
    tmux.run("new-session", "-d", "-s", "ls", "-x", "120", "-y", "30", `${env} ${process.execPath} ${bin} ls; echo "[exit $?]"; sleep 60`);
    const list = await tmux.waitFor("ls", /\w{8} {2}✓ completed/);
    expect(list).toMatch(/Enter open .* q quit/);
    // Enter shows a finished session in the list's own view; any key returns to the list, q leaves.
    tmux.keys("ls", "Enter");
    const shown = await tmux.waitFor("ls", /^status +completed \(task complete: quality gates passed\)/m);
    tmux.keys("ls", "Escape");
    await tmux.waitFor("ls", /Enter open .* q quit/);
    tmux.keys("ls", "q");
    await tmux.waitFor("ls", /\[exit 0\]/);

    // stdin piped, stdout a terminal: the plain table, never a raw-mode error.
    tmux.run(
      "new-session",
      "-d",
      "-s",
      "pipe",
      "-x",
      "120",
      "-y",
      "30",
      `true | ${env} ${process.execPath} ${bin} ls; echo "[exit $?]"; sleep 60`,
    );
    const piped = await tmux.waitFor("pipe", /\[exit \d+\]/);
    expect(piped).toMatch(/^ID +STATUS +HAT/m);
    expect(piped).toMatch(/\[exit 0\]/);
    expect(piped).not.toMatch(/raw mode/i);

    const colours = async (noColor: boolean) => {
      const name = noColor ? "nc" : "c";
      tmux!.run(
        "new-session",
        "-d",
        "-s",
        name,
        "-x",
        "120",
        "-y",
        "30",
        `${noColor ? "NO_COLOR=1 " : ""}${env} ${process.execPath} ${bin} watch ${sessionIdOf(shown)}; sleep 60`,
      );
      await tmux!.waitFor(name, /q detach/);
      const screen = tmux!.run("capture-pane", "-e", "-p", "-t", name);
      tmux!.keys(name, "q");
      return colourCodes(screen).length;
    };
    expect(await colours(false)).toBeGreaterThan(0);
    expect(await colours(true)).toBe(0);
  });
});

function sessionIdOf(screen: string): string {
  return /^session +([0-9a-f-]{36})/m.exec(screen)![1]!;
}
