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
const ctx: ListContext<ListedRow> = { rows, filters: ["all", "running", "completed"], visible: 10, canShowDetails: true, canAct: true };

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

describe("the home screen's keys", () => {
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

  it("lists the sessions waiting for an answer first, and answers the selected one with what was typed", () => {
    const waiting = { ...ctx, rows: [...rows, { id: "w", status: "waiting", live: false, question: "Which database?" }] };
    expect(shownRows(INITIAL_LIST, waiting).map((r) => r.id)).toEqual(["w", "a", "b", "c"]);
    const { state, effects } = press("aUse PG\r", INITIAL_LIST, waiting);
    expect(effects).toEqual([{ type: "act", action: { kind: "answer", id: "w", answer: "Use PG" } }]);
    expect(state.mode).toBeNull();
    // A session that asks nothing: a one-line refusal, no prompt.
    const refused = press("ja", INITIAL_LIST, waiting).state;
    expect(refused.mode).toBeNull();
    expect(refused.message).toMatchObject({ ok: false, text: expect.stringContaining("asks nothing") as string });
  });

  it("pauses, resumes, raises the cost budget by a typed amount and removes only after a y", () => {
    expect(press("p").effects).toEqual([{ type: "act", action: { kind: "stop", id: "a" } }]);
    expect(press("jr").effects).toEqual([{ type: "act", action: { kind: "resume", id: "b" } }]);
    expect(press("b$2.50\r").effects).toEqual([{ type: "act", action: { kind: "raise-budget", id: "a", maxCostUsd: 2.5 } }]);
    const typo = press("bfive\r");
    expect(typo.effects).toEqual([]);
    expect(typo.state.message?.text).toMatch(/not an amount/);
    expect(press("jdn").effects).toEqual([]);
    expect(press("jdy").effects).toEqual([{ type: "act", action: { kind: "remove", id: "b" } }]);
  });

  it("opens the cost panel on $, raises the budget from it with + and comes back to it; any other key closes it", () => {
    const raised = press("$+3\r");
    expect(raised.effects).toEqual([{ type: "act", action: { kind: "raise-budget", id: "a", maxCostUsd: 3 } }]);
    expect(raised.state.mode).toEqual({ type: "cost", id: "a" });
    const closed = press("$x");
    expect(closed.state.mode).toBeNull();
    expect(closed.effects).toEqual([]);
  });

  it("only opens and shows when the CLI cannot act", () => {
    const readOnly = { ...ctx, canAct: false };
    expect(press("prd", INITIAL_LIST, readOnly).effects).toEqual([]);
    expect(press("prd", INITIAL_LIST, readOnly).state.mode).toBeNull();
  });
});
