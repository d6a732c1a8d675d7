import { describe, expect, it } from "vitest";
import { FOLLOW } from "../components/activity-lines.js";
import type { TuiState } from "../state/types.js";
import { busyStore, event } from "../test-support/fixtures.js";
import { NO_FLAGS } from "./split-keys.js";
import { reduceView } from "./view-keys.js";
import { INITIAL_VIEW, type Keys, type ViewContext, type ViewEffect, type ViewState } from "./view-state.js";

// The run view's keys without a terminal: what each does to the view's state, and what it asks of
// the loop and the CLI (SessionView.test.tsx and the tmux tests check the same through Ink).

const NO_KEY = NO_FLAGS;

const PANES = {
  activity: { rows: 4, width: 60 },
  checklist: { rows: 1, width: 40 },
  scratchpad: { rows: 2 },
  body: { rows: 6, width: 60 },
  activityAt: { row: 7, column: 42 },
};

function context(tui: TuiState, overrides: Partial<ViewContext> = {}): ViewContext {
  return { tui, panes: PANES, controls: true, paused: false, canLoadDetails: false, ...overrides };
}

/** Presses keys one after another: text ("q", ":") or a named key ({ escape: true }). */
function press(ctx: ViewContext, keys: Array<string | Partial<Keys>>, view: ViewState = INITIAL_VIEW) {
  const effects: ViewEffect[] = [];
  for (const k of keys) {
    const step = reduceView(
      view,
      { type: "key", input: typeof k === "string" ? k : "", key: { ...NO_KEY, ...(typeof k === "string" ? {} : k) } },
      ctx,
    );
    view = step.view;
    effects.push(...step.effects);
  }
  return { view, effects };
}

const running = () => busyStore().getState();

describe("keys that reach the loop", () => {
  it("p pauses and continues, s stops, each with a notice; none of them when watching or after the run", () => {
    expect(press(context(running()), ["p"]).effects).toEqual([
      { type: "pause" },
      { type: "notice", text: "pausing before the next iteration (p continues)", tone: "warn" },
    ]);
    expect(press(context(running(), { paused: true }), ["p"]).effects).toEqual([
      { type: "unpause" },
      { type: "notice", text: "continuing", tone: "good" },
    ]);
    expect(press(context(running()), ["s"]).effects[0]).toEqual({ type: "stop" });
    expect(press(context(running(), { controls: false }), ["p", "s", ":"])).toEqual({ view: INITIAL_VIEW, effects: [] });
    const ended = busyStore([event("session.end", { status: "completed", reason: "done", iterations: 3, costUsd: 0.42 }, 3)]).getState();
    expect(press(context(ended), ["p", "s", ":"])).toEqual({ view: INITIAL_VIEW, effects: [] });
  });

  it(": opens the steer prompt; Enter sends the trimmed line, Esc discards it", () => {
    const ctx = context(running());
    const typed = press(ctx, [":", "use ", "fake timers "]);
    expect(typed.view.overlay).toBe("steer");
    expect(typed.view.draft.text).toBe("use fake timers ");
    const sent = press(ctx, [{ return: true }], typed.view);
    expect(sent.view).toMatchObject({ overlay: null, draft: { text: "", cursor: 0 } });
    expect(sent.effects).toEqual([
      { type: "steer", text: "use fake timers" },
      { type: "notice", text: "steering queued for the next iteration: use fake timers", tone: "you" },
    ]);
    expect(press(ctx, [{ escape: true }], typed.view)).toEqual({
      view: { ...typed.view, overlay: null, draft: { text: "", cursor: 0 } },
      effects: [],
    });
  });

  it("a answers only while the agent waits for an answer", () => {
    expect(press(context(running()), ["a"]).view.overlay).toBeNull();
    const waiting = busyStore([event("session.status", { status: "waiting", reason: "Postgres or SQLite?" }, 3)]).getState();
    const { effects } = press(context(waiting), ["a", "Postgres", { return: true }]);
    expect(effects).toEqual([
      { type: "answer", text: "Postgres" },
      { type: "notice", text: "answer sent: Postgres", tone: "you" },
    ]);
  });
});

describe("quitting and interrupting", () => {
  it("q asks first when the loop runs here: y quits with a notice, n or Esc goes back, other keys wait", () => {
    const ctx = context(running());
    const asked = press(ctx, ["q", "x"]);
    expect(asked).toEqual({ view: { ...INITIAL_VIEW, overlay: "quit" }, effects: [] });
    expect(press(ctx, ["y"], asked.view).effects).toEqual([
      { type: "notice", text: "quitting: the loop stops now and pauses with a checkpoint", tone: "warn" },
      { type: "quit" },
    ]);
    expect(press(ctx, ["n"], asked.view)).toEqual({ view: INITIAL_VIEW, effects: [] });
    expect(press(ctx, [{ escape: true }], asked.view)).toEqual({ view: INITIAL_VIEW, effects: [] });
  });

  it("q detaches a watcher at once", () => {
    expect(press(context(running(), { controls: false }), ["q"]).effects).toEqual([{ type: "quit" }]);
  });

  it("Ctrl-C closes whatever is open and interrupts the run, or detaches a watcher; a steer draft is kept", () => {
    const ctrlC = { ctrl: true } as const;
    const steering = press(context(running()), [":", "half a thought"]).view;
    const run = reduceView(steering, { type: "key", input: "c", key: { ...NO_KEY, ...ctrlC } }, context(running()));
    expect(run.effects).toEqual([{ type: "interrupt" }]);
    expect(run.view).toMatchObject({ overlay: null, draft: { text: "half a thought" } });
    const watch = reduceView(
      INITIAL_VIEW,
      { type: "key", input: "c", key: { ...NO_KEY, ...ctrlC } },
      context(running(), { controls: false }),
    );
    expect(watch.effects).toEqual([{ type: "quit" }]);
  });
});

describe("panes", () => {
  it("Tab moves the focus: activity, checklist, scratchpad, and round again", () => {
    const ctx = context(running());
    expect([1, 2, 3].map((n) => press(ctx, Array<Partial<Keys>>(n).fill({ tab: true })).view.focus)).toEqual([
      "checklist",
      "scratchpad",
      "activity",
    ]);
  });

  it("arrows scroll the activity and hold the line shown; End follows again; [ jumps to an iteration", () => {
    const ctx = context(running());
    const up = press(ctx, [{ upArrow: true }, { upArrow: true }]).view;
    expect(up.activity.offset).toBe(2);
    expect(up.activity.anchor).not.toBeNull();
    expect(press(ctx, [{ end: true }], up).view.activity).toEqual(FOLLOW);
    expect(press(ctx, [{ home: true }]).view.activity.offset).toBeGreaterThan(2);
    const jumped = press(ctx, ["["]).view;
    expect(jumped.activity.offset).toBeGreaterThan(0);
    expect(jumped.focus).toBe("activity");
  });

  it("side panes scroll within their lines", () => {
    const ctx = context(running());
    const checklist = press(ctx, [{ tab: true }, { upArrow: true }, { upArrow: true }, { upArrow: true }]).view;
    // Two items in one row: one line up is as far as it goes.
    expect(checklist.side.checklist).toBe(1);
    const scratchpad = press(ctx, [{ tab: true }, { tab: true }, { downArrow: true }, { pageDown: true }, { pageDown: true }]).view;
    // Five scratchpad lines in two rows: three down is the end.
    expect(scratchpad.side.scratchpad).toBe(3);
  });

  it("? shows the help, and any key closes it", () => {
    const ctx = context(running());
    expect(press(ctx, ["?"]).view.overlay).toBe("help");
    expect(press(ctx, ["?", "p"])).toEqual({ view: INITIAL_VIEW, effects: [] });
  });
});

describe("search and opening entries", () => {
  it("/ finds the newest match and selects it; n and N step; Esc ends the search", () => {
    const ctx = context(running());
    const found = press(ctx, ["/", "run_command", { return: true }]).view;
    expect(found.query).toBe("run_command");
    const newest = found.selected;
    expect(newest).not.toBeNull();
    const older = press(ctx, ["n"], found).view;
    expect(older.selected).not.toBe(newest);
    expect(press(ctx, ["N"], older).view.selected).toBe(newest);
    expect(press(ctx, [{ escape: true }], found).view).toMatchObject({ query: null, selected: null });
  });

  it("Enter opens the selected entry, asks for its stored content, and takes only the latest opening's", () => {
    const ctx = context(running(), { canLoadDetails: true });
    const opened = press(ctx, ["/", "run_command ERROR", { return: true }, { return: true }]);
    expect(opened.view.overlay).toBe("detail");
    expect(opened.view.detail).toMatchObject({ note: "loading the whole content from the store…", top: 0 });
    expect(opened.effects).toEqual([{ type: "load", opened: 1, ref: { kind: "tool", toolId: "t1", iteration: 3 } }]);
    const loaded = reduceView(opened.view, { type: "loaded", opened: 1, text: "the whole output" }, ctx).view;
    expect(loaded.detail).toMatchObject({ text: "the whole output", note: null });
    expect(reduceView(opened.view, { type: "loaded", opened: 0, text: "an earlier opening" }, ctx).view).toBe(opened.view);
    const failed = reduceView(opened.view, { type: "load-failed", opened: 1, error: "database gone" }, ctx).view;
    expect(failed.detail?.note).toBe("the stored content could not be read (database gone)");
    const closed = press(ctx, ["q"], loaded).view;
    expect(closed).toMatchObject({ overlay: null, detail: null });
    expect(reduceView(closed, { type: "loaded", opened: 1, text: "late" }, ctx).view).toBe(closed);
  });

  it("an opened entry scrolls within its lines", () => {
    const ctx = context(running());
    const long = busyStore([
      event("error", { message: Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n"), fatal: false }, 3),
    ]).getState();
    const open = press(context(long), [{ return: true }]).view;
    expect(open.detail?.top).toBe(0);
    expect(press(context(long), [{ pageDown: true }], open).view.detail?.top).toBe(4);
    expect(press(context(long), [{ end: true }], open).view.detail?.top).toBe(15);
    expect(press(ctx, [{ escape: true }], open).view.overlay).toBeNull();
  });
});

describe("vim keys, folding and jumps", () => {
  it("j k g G and Ctrl-D Ctrl-U scroll as the arrows, Home End and half pages do", () => {
    const ctx = context(running());
    expect(press(ctx, ["k", "k"]).view.activity).toEqual(press(ctx, [{ upArrow: true }, { upArrow: true }]).view.activity);
    expect(press(ctx, ["k", "k", "j"]).view.activity.offset).toBe(1);
    expect(press(ctx, ["g"]).view.activity).toEqual(press(ctx, [{ home: true }]).view.activity);
    expect(press(ctx, ["g", "G"]).view.activity).toEqual(FOLLOW);
    const half = reduceView(INITIAL_VIEW, { type: "key", input: "u", key: { ...NO_KEY, ctrl: true } }, ctx).view;
    expect(half.activity.offset).toBe(2);
    expect(reduceView(half, { type: "key", input: "d", key: { ...NO_KEY, ctrl: true } }, ctx).view.activity).toEqual(FOLLOW);
  });

  it("z folds the selected entry's iteration to its header and unfolds it; Z folds all but the current, then unfolds", () => {
    const ctx = context(running());
    const folded = press(ctx, ["z"]).view;
    expect([...folded.folded]).toEqual([3]);
    expect(press(ctx, ["z"], folded).view.folded.size).toBe(0);
    const all = press(ctx, ["Z"]).view;
    // Iteration 3 is under way (no iteration.end yet): it stays open.
    expect([...all.folded]).toEqual([1]);
    expect(press(ctx, ["Z"], all).view.folded.size).toBe(0);
  });

  it("e selects the newest error, then older ones, unfolding its iteration; { } jump by hat", () => {
    const tui = busyStore([event("error", { message: "boom", fatal: true }, 3)]).getState();
    const ctx = context(tui);
    const newest = press(ctx, ["Z", "e"]).view;
    expect(tui.activity.find((e) => e.id === newest.selected)?.text).toContain("boom");
    const older = press(ctx, ["e"], newest).view;
    expect(tui.activity.find((e) => e.id === older.selected)?.text).toContain("run_command");
    expect(press(ctx, ["{"]).view.activity.offset).toBeGreaterThan(0);
    expect(press(ctx, ["{", "}"]).view.activity).toEqual(FOLLOW);
  });

  it("y copies the selected entry and o pages it, from the activity and from an opened entry", () => {
    const ctx = context(running());
    const copied = press(ctx, ["/", "npm test", { return: true }, "y", "o"]).effects;
    expect(copied[0]).toEqual({ type: "copy", text: "run_command npm test" });
    expect(copied[2]).toMatchObject({ type: "page", text: expect.stringContaining("npm test") as string });
    const open = press(ctx, ["/", "npm test", { return: true }, { return: true }]).view;
    expect(press(ctx, ["y"], open).effects[0]).toEqual({ type: "copy", text: "run_command npm test" });
    expect(press(ctx, ["o"], open).effects[0]).toMatchObject({ type: "page" });
  });
});

describe("the cost panel's keys", () => {
  it("opens on $, raises the budget by the dollars typed after +, comes back to the panel, and closes on any other key", () => {
    const ctx = context(running(), { canRaiseBudget: true });
    const raised = press(ctx, ["$", "+", "2", ".", "5", { return: true }]);
    expect(raised.effects).toEqual([{ type: "raise", moreUsd: 2.5 }]);
    expect(raised.view.overlay).toBe("cost");
    const typo = press(ctx, ["$", "+", "x", { return: true }]);
    expect(typo.effects).toEqual([{ type: "notice", text: "not an amount of dollars: x (type 5 or $2.50)", tone: "error" }]);
    expect(press(ctx, ["$", "j"]).view.overlay).toBeNull();
    // Nothing to raise it with (no raiser): + closes the panel like any other key.
    expect(press(context(running()), ["$", "+"]).view.overlay).toBeNull();
  });
});

describe("the mouse", () => {
  const report = (button: number, column: number, row: number) => ({
    type: "key" as const,
    input: `[<${button};${column};${row}M`,
    key: NO_KEY,
  });

  it("the wheel scrolls the activity three lines a notch; a click on an activity line selects its entry", () => {
    const ctx = context(running());
    const up = reduceView(INITIAL_VIEW, report(64, 50, 8), ctx).view;
    expect(up.activity.offset).toBe(3);
    expect(reduceView(up, report(65, 50, 8), ctx).view.activity).toEqual(FOLLOW);
    // The 4 rows shown end with the newest line; the first of them is at row 7.
    const shown = press(ctx, []).view;
    const clicked = reduceView(shown, report(0, 50, 7), ctx);
    expect(clicked.view.selected).not.toBeNull();
    expect(clicked.effects).toEqual([]);
    // Left of the activity (the side column), or a release: nothing.
    expect(reduceView(shown, report(0, 10, 7), ctx).view).toBe(shown);
    expect(reduceView(shown, { ...report(0, 50, 7), input: "[<0;50;7m" }, ctx).view.selected).toBeNull();
  });

  it("a report is never typed into a prompt", () => {
    const ctx = context(running());
    const steering = press(ctx, [":", "go"]).view;
    expect(reduceView(steering, report(64, 50, 8), ctx).view.draft).toEqual(steering.draft);
  });
});
