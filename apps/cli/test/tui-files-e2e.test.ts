import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { colourCodes, hasTmux, Tmux } from "./support/tmux.js";
import { runHatloop } from "./support/hatloop.js";
import { bin, openPane, tuiRun } from "./support/tui-run.js";

// Issue 28's files and diffs: f shows the files the session changed, by checkpoint, each with its
// diff (read from the worktree as the console reads it), ← → step checkpoints, j k pick a file, e
// opens it in $EDITOR with the view suspended and back. A finished run (a checkpoint every
// iteration that moved, then the end's) watched in a pane.

let tmux: Tmux | null = null;
afterEach(() => tmux?.kill());

describe.runIf(requireOrSkip(hasTmux(), "tmux"))("the files view in a terminal (tmux)", () => {
  it("lists each checkpoint's files with their coloured diffs, steps checkpoints, and opens a file in $EDITOR", async () => {
    tmux = new Tmux();
    const run = tuiRun([{ write: "alpha" }, { write: "beta" }, { complete: true }]);
    const editor = join(run.root, "editor.sh");
    writeFileSync(editor, '#!/bin/sh\necho "EDITING $1"\ncat "$1"\nread line\n');
    chmodSync(editor, 0o755);
    await runHatloop(run.plainRunArgs(), { ...run.vars, HATLOOP_CHECKPOINT__INTERVAL: "1" });
    const id = await run.sessionId();
    const pane = openPane(tmux, "f", 120, 30, `${run.env} EDITOR=${editor} ${process.execPath} ${bin} watch ${id}; sleep 600`);
    await tmux.waitFor(pane, /completed/);

    tmux.keys(pane, "f");
    // The newest checkpoint that committed something: the end's, with beta (iteration 2's barely moved).
    const newest = await tmux.waitFor(pane, /\+beta/);
    expect(newest).toMatch(/Files · checkpoint #\d+ \(.*\) · 2\/2/);
    expect(newest).toMatch(/notes\/beta\.txt \+1 -0/);
    expect(newest).toMatch(/diff --git a\/notes\/beta\.txt b\/notes\/beta\.txt/);
    expect(newest).not.toContain("alpha");
    expect(colourCodes(tmux.styled(pane))).toContain("\x1b[32m");

    tmux.keys(pane, "Left");
    const older = await tmux.waitFor(pane, /\+alpha/);
    expect(older).toMatch(/notes\/alpha\.txt \+1 -0/);
    expect(older).toMatch(/iteration 1\) · 1\/2/);

    tmux.keys(pane, "e");
    // The editor prints its line, then the file: wait for both (a screen read between them showed the line only).
    const editing = await tmux.waitFor(pane, /EDITING .*notes\/alpha\.txt\n[\s\S]*^alpha$/m);
    expect(editing).toMatch(/^alpha$/m);
    tmux.keys(pane, "Enter");
    const back = await tmux.waitFor(pane, /notes\/alpha\.txt \+1 -0/);
    expect(back).toMatch(/Esc back/);
    expect(tmux.alternate(pane)).toBe(true);

    tmux.keys(pane, "Escape");
    await tmux.waitFor(pane, /f files/);
  });
});
