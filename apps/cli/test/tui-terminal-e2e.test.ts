import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { hasTmux, Tmux } from "./support/tmux.js";
import { openPane, runCommand, tuiRun } from "./support/tui-run.js";

// The view as a terminal program (issue 28): Ctrl-Z suspends it and `fg` draws it whole again,
// the terminal's title says the status and the cost, notifications reach the terminal through
// tmux, and a double Ctrl-C exits at once saying how to continue. The real binary in tmux.

let tmux: Tmux | null = null;
afterEach(() => tmux?.kill());

const title = (pane: string) => tmux!.run("display-message", "-p", "-t", pane, "#{pane_title}").trim();

describe.runIf(requireOrSkip(hasTmux(), "tmux"))("the view in a terminal (tmux)", () => {
  it("Ctrl-Z suspends the run view to the shell, fg draws it whole again; the title shows status and cost; the end rings through tmux", async () => {
    const run = tuiRun([{ hold: "a" }, { complete: true }]);
    tmux = new Tmux();
    const pane = openPane(
      tmux,
      "z",
      100,
      30,
      `env -i PATH=${process.env.PATH} HOME=${run.home} TMUX="$TMUX" PS1='$ ' bash --norc --noprofile -i`,
    );
    const record = join(run.root, "pane-bytes");
    tmux.run("pipe-pane", "-O", "-t", pane, `cat > ${record}`);
    // The command alone: bash goes on to the next command of a line whose job stops.
    tmux.keys(pane, "-l", runCommand(run, "--max-cost 5").replace(/; echo .*$/, ""));
    tmux.keys(pane, "Enter");
    await tmux.waitFor(pane, /Waiting for a\./);
    expect(title(pane)).toMatch(/^hatloop: running · \$[\d.]+\/\$5\.00 · [0-9a-f]{8} · iteration 1$/);

    tmux.keys(pane, "C-z");
    const shell = await tmux.waitFor(pane, /Stopped +env -u CI/);
    expect(tmux.alternate(pane)).toBe(false);
    expect(shell).not.toContain("Waiting for a.");
    tmux.keys(pane, "-l", "fg");
    tmux.keys(pane, "Enter");
    // Every row drawn again over what the shell wrote: the header, the activity, the footer.
    const back = await tmux.waitFor(pane, /Waiting for a\.[\s\S]*\? help/);
    expect(tmux.alternate(pane)).toBe(true);
    expect(back).toMatch(/^▶ running/m);
    expect(back).not.toMatch(/Stopped|\$ fg/);
    tmux.keys(pane, "?");
    await tmux.waitFor(pane, /any key closes this help/);
    tmux.keys(pane, "Escape");

    run.release("a");
    // The shell's prompt back (typed ahead, the line would be lost as the view leaves raw mode).
    await tmux.waitFor(pane, /^hatloop: completed: .*\n\$$/m);
    tmux.keys(pane, "-l", 'echo "[exit $?]"');
    tmux.keys(pane, "Enter");
    await tmux.waitFor(pane, /^\[exit 0\]/m);
    expect(title(pane)).toMatch(/^hatloop: completed · /);
    // Inside tmux the desktop notification goes in tmux's passthrough (ESC doubled), the bell as it is.
    const bytes = readFileSync(record, "latin1");
    /* eslint-disable no-control-regex -- the escape sequences the pane received are what is checked */
    expect(bytes).toMatch(/\x1bPtmux;\x1b\x1b\]9;hatloop [0-9a-f]{8}: completed\x07\x1b\\/);
    expect(bytes).toMatch(/\x1bPtmux;\x1b\x1b\]777;notify;hatloop;hatloop [0-9a-f]{8}: completed\x07\x1b\\\x07/);
    expect(bytes).not.toMatch(/[^\x1b]\x1b\]9;/);
    /* eslint-enable no-control-regex */
  });

  it("a first Ctrl-C says it is writing a checkpoint; a second exits at once, saying how to continue", async () => {
    // The held command ignores SIGTERM and leaves a process holding its output: stopping it takes
    // the tool's grace and drain time (about 2.5 s), a pause long enough for a person's second Ctrl-C.
    // Outside the sandbox: in it, the command's processes all end with it at once, and the first
    // Ctrl-C's pause is over before a second could come.
    const run = tuiRun([{ hold: "a" }, { complete: true }], "HATLOOP_TOOLS__SANDBOX__MODE=off");
    const held = `trap '' TERM INT; setsid sleep 20 & while [ ! -e '${run.gate("a")}' ]; do sleep 0.05; done; echo go`;
    writeFileSync(
      run.scenario,
      [
        { text: "Waiting for a.", tools: [{ name: "run_command", input: { command: held } }] },
        { text: "All steps written.", tools: [{ name: "task_complete", input: { summary: "notes written" } }] },
      ]
        .map((t) => JSON.stringify(t))
        .join("\n") + "\n",
    );
    tmux = new Tmux();
    const pane = openPane(tmux, "c", 120, 30, runCommand(run));
    await tmux.waitFor(pane, /Waiting for a\./);
    const id = (await run.sessionId()).slice(0, 8);
    tmux.keys(pane, "C-c");
    await tmux.waitFor(pane, /interrupting: writing a checkpoint, then pausing \(Ctrl-C again to exit at once\)/);
    tmux.keys(pane, "C-c");
    const ended = await tmux.waitFor(pane, /\[exit 130\]/);
    expect(tmux.alternate(pane)).toBe(false);
    expect(ended).toContain("hatloop: interrupted again: exited without waiting for the checkpoint");
    // The hint names what was run: the binary here, or `pnpm hatloop` when the suite runs under pnpm.
    expect(ended).toMatch(new RegExp(`continue from the last one with: .*(bin\\.js|hatloop) resume ${id}`));
    expect((await run.hatloop(["ls"])).stdout).toMatch(new RegExp(`${id} +interrupted`));
    // The hint is true: the session resumes from its last checkpoint and completes.
    run.release("a");
    const resumed = await run.hatloop(["resume", id, "--plain"]);
    expect(resumed.code, resumed.stderr).toBe(0);
  });
});
