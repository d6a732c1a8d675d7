import { describe, expect, it } from "vitest";
import { changesOf, diffTone } from "../components/diff-files.js";
import { busyStore, event } from "../test-support/fixtures.js";
import { NO_FLAGS } from "./split-keys.js";
import { reduceView } from "./view-keys.js";
import { INITIAL_VIEW, type Keys, type ViewContext, type ViewEffect, type ViewInput, type ViewState } from "./view-state.js";

// The files view without a terminal: checkpoints from the events, the diff asked for and split into
// files, the keys that move between checkpoints, files and the diff, and what goes to the terminal.

const DIFF = (name: string) =>
  [
    `abc1234 checkpoint ${name}`,
    "",
    `diff --git a/src/${name}.ts b/src/${name}.ts`,
    "index 1..2 100644",
    `--- a/src/${name}.ts`,
    `+++ b/src/${name}.ts`,
    "@@ -1,2 +1,3 @@",
    " keep",
    "-old",
    "+new",
    "+more",
    "diff --git a/README.md b/README.md",
    "--- a/README.md",
    "+++ b/README.md",
    "@@ -1 +1 @@",
    "-a",
    "+b",
    "",
  ].join("\n");

const checkpoint = (seq: number, commit: string | null, reason = "iteration") =>
  event("checkpoint.saved", { seq, reason, commit, contextTokens: 1 }, seq);

const tui = busyStore([
  checkpoint(1, "base000", "start"),
  checkpoint(2, "c2"),
  checkpoint(3, "c2"),
  checkpoint(4, null),
  checkpoint(5, "c5"),
]).getState();
const ctx: ViewContext = {
  tui,
  panes: {
    activity: { rows: 4, width: 60 },
    checklist: { rows: 1, width: 40 },
    scratchpad: { rows: 2 },
    body: { rows: 6, width: 90 },
    activityAt: { row: 7, column: 1 },
  },
  controls: true,
  paused: false,
  canLoadDetails: false,
};

function send(inputs: Array<string | Partial<Keys> | ViewInput>, view: ViewState = INITIAL_VIEW) {
  const effects: ViewEffect[] = [];
  for (const i of inputs) {
    const input: ViewInput =
      typeof i === "string"
        ? { type: "key", input: i, key: NO_FLAGS }
        : "type" in i
          ? i
          : { type: "key", input: "", key: { ...NO_FLAGS, ...i } };
    const next = reduceView(view, input, ctx);
    view = next.view;
    effects.push(...next.effects);
  }
  return { view, effects };
}

const loaded = (commit: string): ViewInput => ({ type: "diff-loaded", commit, text: DIFF(commit), error: null });

describe("the files view", () => {
  it("keeps the checkpoints that committed the run's changes: not the start's base, not a repeat, not an empty one", () => {
    expect(tui.checkpoints.map((c) => c.commit)).toEqual(["c2", "c5"]);
  });

  it("splits a commit's diff into its files with their counts and tones", () => {
    const { subject, files } = changesOf(DIFF("c5"));
    expect(subject).toBe("abc1234 checkpoint c5");
    expect(files.map((f) => [f.path, f.added, f.removed])).toEqual([
      ["src/c5.ts", 2, 1],
      ["README.md", 1, 1],
    ]);
    expect(["+new", "-old", "@@ -1 +1 @@", "+++ b/x", " keep"].map(diffTone)).toEqual(["add", "remove", "hunk", "head", null]);
  });

  it("f opens the newest checkpoint and asks for its diff; ← goes older, → newer; a late diff for another is dropped", () => {
    const opened = send(["f"]);
    expect(opened.view.overlay).toBe("files");
    expect(opened.effects).toEqual([{ type: "load-diff", commit: "c5" }]);
    const older = send([loaded("c5"), { leftArrow: true }], opened.view);
    expect(older.effects).toEqual([{ type: "load-diff", commit: "c2" }]);
    expect(older.view.files).toMatchObject({ back: 1, loaded: null });
    expect(send([loaded("c5")], older.view).view).toBe(older.view);
    expect(send(["h"], older.view).effects).toEqual([{ type: "load-diff", commit: "c2" }]);
    expect(send([{ rightArrow: true }], older.view).effects).toEqual([{ type: "load-diff", commit: "c5" }]);
    expect(send([{ escape: true }], older.view).view.overlay).toBeNull();
  });

  it("j k pick the file; o pages its diff, e edits it, y copies it; a diff that cannot be read says why", () => {
    const view = send(["f", loaded("c5")]).view;
    expect(view.files.loaded?.text).toContain("src/c5.ts");
    const second = send(["j", "j"], view).view;
    expect(second.files.file).toBe(1);
    expect(send(["k"], second).view.files.file).toBe(0);
    const acts = send(["o", "e", "y"], second).effects;
    expect(acts[0]).toEqual({ type: "page", text: expect.stringContaining("diff --git a/README.md") as string });
    expect(acts[1]).toEqual({ type: "edit", path: "README.md" });
    expect(acts[2]).toMatchObject({ type: "copy" });
    const failed = send(["f", { type: "diff-loaded", commit: "c5", text: null, error: "the worktree is not on this machine" }]).view;
    expect(failed.files.loaded?.error).toBe("the worktree is not on this machine");
  });

  it("scrolls the diff within its lines", () => {
    const view = send(["f", loaded("c5")]).view;
    // 9 lines of src/c5.ts's diff in 5 rows: 4 is the end.
    expect(send([{ pageDown: true }, { pageDown: true }], view).view.files.top).toBe(4);
    expect(send(["G", "g"], view).view.files.top).toBe(0);
  });
});
