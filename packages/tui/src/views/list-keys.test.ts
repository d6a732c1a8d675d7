import { describe, expect, it } from "vitest";
import {
  cursorIndex,
  INITIAL_LIST,
  reduceList,
  shownRows,
  withDetails,
  type ListContext,
  type ListedRow,
  type ListState,
} from "./list-keys.js";
import { keyOfChar } from "./split-keys.js";

// The ls dashboard's keys, each applied to the state the one before left.

const rows: ListedRow[] = [
  { id: "a", status: "running", live: true },
  { id: "b", status: "completed", live: false },
  { id: "c", status: "completed", live: false },
];
const ctx: ListContext<ListedRow> = { rows, filters: ["all", "running", "completed"], visible: 10, canShowDetails: true };

/** The keys of `typed`, one after the other; the state they leave and every effect asked for. */
function press(typed: string, from: ListState = INITIAL_LIST, context = ctx) {
  let state = from;
  const effects = [];
  for (const { input, key } of [...typed].map(keyOfChar)) {
    const next = reduceList(state, input, key, context);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}

describe("the ls dashboard's keys", () => {
  it("cycles the filter once per f, and keeps the cursor on the chosen session through it", () => {
    const { state } = press("jjff");
    expect(ctx.filters[state.filter]).toBe("completed");
    expect(shownRows(state, ctx)[cursorIndex(state, shownRows(state, ctx))]!.id).toBe("c");
  });

  it("watches a live session on Enter, shows a finished one in place, or leaves to show it without details", () => {
    expect(press("\r").effects).toEqual([{ type: "choose", action: "watch", id: "a" }]);
    expect(press("j\r").effects).toEqual([{ type: "details", id: "b" }]);
    expect(press("js", INITIAL_LIST, { ...ctx, canShowDetails: false }).effects).toEqual([{ type: "choose", action: "show", id: "b" }]);
    expect(press("w").effects).toEqual([{ type: "choose", action: "watch", id: "a" }]);
  });

  it("scrolls the details, closes them on any other key, and then the keys are the list's again", () => {
    const open = withDetails(INITIAL_LIST, "b", "one\ntwo");
    const scrolled = reduceList(open, "", { ...keyOfChar("x").key, downArrow: true }, ctx).state;
    expect(scrolled.details?.top).toBe(1);
    const { state, effects } = press("xq", scrolled);
    expect(state.details).toBeNull();
    expect(effects).toEqual([{ type: "quit" }]);
  });

  it("quits on q, Esc or Ctrl-C, even from the details", () => {
    expect(press("q").effects).toEqual([{ type: "quit" }]);
    expect(press("\u0003", withDetails(INITIAL_LIST, "b", "x")).effects).toEqual([{ type: "quit" }]);
  });
});
