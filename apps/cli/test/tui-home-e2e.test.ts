import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { hasTmux, Tmux } from "./support/tmux.js";
import { bin, openPane, runCommand, tuiRun } from "./support/tui-run.js";
import { until } from "./support/until.js";

// The home screen as a person uses it (issue 28): `hatloop` alone in a terminal lists every
// session, those waiting for an answer first, and acts on the selected one through the commands'
// own functions. The real binary in tmux; every wait reads the screen (the list refreshes every 2 s).

let tmux: Tmux | null = null;
afterEach(() => tmux?.kill());

/** The selected row's short id: the row drawn in inverse on the styled screen. */
function selectedId(styled: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- the inverse attribute is what marks the selection
  return /\x1b\[(?:[\d;]*;)?7m(?:\x1b\[[\d;]*m)*([0-9a-f]{8}) {2}/.exec(styled)?.[1];
}

/** Moves the selection to the row of `id` (short), from the top, a key at a time, each seen on the screen. */
async function selectRow(pane: string, id: string): Promise<void> {
  tmux!.keys(pane, "g");
  await until("the top row selected", () => selectedId(tmux!.styled(pane)) === tmux!.screen(pane).split("\n")[2]!.slice(0, 8));
  for (let at = selectedId(tmux!.styled(pane)); at !== id;) {
    const from = at;
    tmux!.keys(pane, "j");
    at = await until("the selection moved down", () => {
      const now = selectedId(tmux!.styled(pane));
      return now !== from && now;
    });
  }
}

describe.runIf(requireOrSkip(hasTmux(), "tmux"))("the home screen (tmux)", () => {
  it("lists a waiting session first with its question; raises its budget from the cost panel, answers it, removes another after a y", async () => {
    const run = tuiRun([{ ask: "Which database should I use?" }, { complete: true }]);
    expect((await run.hatloop(run.plainRunArgs(["--max-cost", "2"]))).code).toBe(4);
    const asking = await run.sessionId();
    const done = join(run.root, "done.jsonl");
    writeFileSync(
      done,
      `${JSON.stringify({ text: "Nothing to do.", tools: [{ name: "task_complete", input: { summary: "nothing" } }] })}\n`,
    );
    expect((await run.hatloop(run.plainRunArgs(["--model", `scripted:${done}`]))).code).toBe(0);
    const finished = await run.sessionId();

    tmux = new Tmux();
    // No command: on a terminal, the home screen.
    const pane = openPane(tmux, "home", 120, 30, `${run.env} ${process.execPath} ${bin}; echo "[exit $?]"; sleep 600`);
    const listed = await tmux.waitFor(pane, /2 of 2 sessions · 1 waiting/);
    const lines = listed.split("\n");
    // The waiting one first although the other is newer, its question under it, its budget beside its cost.
    expect(lines[2]).toMatch(new RegExp(`^${asking.slice(0, 8)} +\\? waiting .* \\$[\\d.]+/\\$2\\.00 `));
    expect(lines[3]).toMatch(/^ +\? Which database should I use\?/);
    expect(lines[4]).toMatch(new RegExp(`^${finished.slice(0, 8)} +✓ completed`));
    expect(lines.find((l) => l.startsWith("Enter open"))).toMatch(
      /Enter open +a answer +p pause +r resume +b budget +\$ cost +d remove +f filter +q quit/,
    );
    expect(tmux.run("display-message", "-p", "-t", pane, "#{pane_title}")).toMatch(/^hatloop: 1 waiting · 0 running · 2 sessions · \$/);

    // The cost panel, and the budget raised in place: 3 dollars more than what was spent.
    tmux.keys(pane, "$");
    const panel = await tmux.waitFor(pane, /cost of session/);
    expect(panel).toMatch(new RegExp(`cost of session ${asking.slice(0, 8)}`));
    expect(panel).toMatch(/spent +\$[\d.]+ of \$2\.00 \(\d+%\)/);
    expect(panel).toMatch(/burn rate +not yet/);
    expect(panel).toMatch(/cache write +\S+ +\d+%/);
    tmux.keys(pane, "+");
    await tmux.waitFor(pane, /more cost budget for [0-9a-f]{8}, \$/);
    tmux.keys(pane, "-l", "3");
    tmux.keys(pane, "Enter");
    await tmux.waitFor(pane, /budget is now \d+ iterations, \$3\.\d\d/);
    expect(tmux.screen(pane)).toMatch(/spent +\$[\d.]+ of \$3\.\d\d/);
    tmux.keys(pane, "Escape");
    await tmux.waitFor(pane, /\/\$3\.\d\d /);

    // Answered from the list: the run goes on (here, started again on this machine) and completes.
    tmux.keys(pane, "a");
    await tmux.waitFor(pane, new RegExp(`answer ${asking.slice(0, 8)}> `));
    tmux.keys(pane, "-l", "Use Postgres");
    tmux.keys(pane, "Enter");
    await tmux.waitFor(pane, /answered; session [0-9a-f]{8} resumed on this machine/);
    await tmux.waitFor(pane, /2 of 2 sessions · filter/);
    await tmux.waitFor(pane, new RegExp(`${asking.slice(0, 8)} +✓ completed`));
    const events = (await run.hatloop(["logs", asking, "--json"])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });
    expect(events.find((e) => e.type === "question.answered")?.data).toMatchObject({
      answer: "Use Postgres",
      answeredBy: expect.stringMatching(/^tui@/) as string,
    });

    // Remove the other one: n keeps it, y removes it, as `hatloop rm` would.
    const selected = finished.slice(0, 8);
    await selectRow(pane, selected);
    tmux.keys(pane, "d");
    await tmux.waitFor(pane, new RegExp(`Remove session ${selected}: .* y / n`));
    tmux.keys(pane, "n");
    await tmux.waitFor(pane, /Enter open/);
    tmux.keys(pane, "d");
    await tmux.waitFor(pane, /y \/ n/);
    tmux.keys(pane, "y");
    await tmux.waitFor(pane, new RegExp(`removed ${selected}: worktree `));
    await tmux.waitFor(pane, /1 of 1 session /);
    const left = JSON.parse((await run.hatloop(["ls", "--json"])).stdout) as Array<{ id: string }>;
    expect(left.map((s) => s.id)).toEqual([asking]);
    tmux.keys(pane, "q");
    await tmux.waitFor(pane, /\[exit 0\]/);
  });

  it("pauses a running session, resumes it, opens it into its view and comes back to the list", async () => {
    const run = tuiRun([{ hold: "a" }, { hold: "b" }, { complete: true }]);
    tmux = new Tmux();
    openPane(tmux, "run", 100, 30, runCommand(run, "--plain"));
    await tmux.waitFor("run:0.0", /Waiting for a\./);
    const id = (await run.sessionId()).slice(0, 8);
    const pane = openPane(tmux, "home", 120, 30, `${run.env} ${process.execPath} ${bin} ls; echo "[exit $?]"; sleep 600`);
    await tmux.waitFor(pane, new RegExp(`${id} +▶ running`));
    tmux.keys(pane, "p");
    await tmux.waitFor(pane, /stop requested: its runner checkpoints and pauses at the end of this iteration/);
    // The runner learns of it when it next looks (every few seconds): then the iteration may end.
    await tmux.waitFor("run:0.0", /stop requested \(hatloop stop\)/);
    run.release("a");
    await tmux.waitFor("run:0.0", /\[exit 130\]/);
    await tmux.waitFor(pane, new RegExp(`${id} +‖ paused`));
    tmux.keys(pane, "r");
    await tmux.waitFor(pane, new RegExp(`session ${id} resumed on this machine`));
    await tmux.waitFor(pane, new RegExp(`${id} +▶ running`));
    // Open: a live session is watched; q comes back to the list, the session still selected.
    tmux.keys(pane, "Enter");
    await tmux.waitFor(pane, /Waiting for b\./);
    tmux.keys(pane, "q");
    await tmux.waitFor(pane, /1 of 1 session .* live/);
    expect(selectedId(tmux.styled(pane))).toBe(id);
    run.release("b");
    await tmux.waitFor(pane, new RegExp(`${id} +✓ completed`));
    tmux.keys(pane, "q");
    await tmux.waitFor(pane, /\[exit 0\]/);
  });

  it("the run view's costs: $ opens them, + raises the cost budget in place, and the header shows the new one", async () => {
    const run = tuiRun([{ hold: "a" }, { complete: true }]);
    tmux = new Tmux();
    const pane = openPane(tmux, "run", 100, 30, runCommand(run, "--max-cost 1"));
    await tmux.waitFor(pane, /Waiting for a\./);
    tmux.keys(pane, "$");
    const panel = await tmux.waitFor(pane, /cost of session [0-9a-f]{8}/);
    expect(panel).toMatch(/spent +\$[\d.]+ of \$1\.00 \(\d+%\)/);
    expect(panel).toMatch(/cache read +\S+ +\d+%/);
    expect(panel).toMatch(/\+ raise the cost budget/);
    tmux.keys(pane, "+");
    await tmux.waitFor(pane, /more cost budget, \$/);
    tmux.keys(pane, "-l", "4");
    tmux.keys(pane, "Enter");
    await tmux.waitFor(pane, /spent +\$[\d.]+ of \$4\.\d\d/);
    tmux.keys(pane, "Escape");
    const back = await tmux.waitFor(pane, /cost budget now \$4\.\d\d \(\$4\.00 over the \$[\d.]+ spent\)/);
    expect(back).toMatch(/^▶ running .*\$[\d.]+\/\$4\.\d\d/m);
    const stored = JSON.parse((await run.hatloop(["show", await run.sessionId(), "--json"])).stdout) as { budgets: { maxCostUsd: number } };
    expect(stored.budgets.maxCostUsd).toBeGreaterThan(4);
    run.release("a");
    await tmux.waitFor(pane, /\[exit 0\]/);
  });
});
