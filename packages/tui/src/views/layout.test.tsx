import { describe, expect, it } from "vitest";
import { busyStore, event, NOW } from "../test-support/fixtures.js";
import { frame } from "../test-support/render-view.js";
import { layoutFor } from "./layout.js";
import { SessionView } from "./SessionView.js";

describe("the panes use the terminal's space", () => {
  it("gives the side column a third of a wide terminal, within bounds, and the checklist only the rows its lines need", () => {
    expect(layoutFor(100, 40, () => 2, 0)).toMatchObject({ twoColumns: true, sideWidth: 36, mainWidth: 63 });
    expect(layoutFor(150, 40, () => 2, 0)).toMatchObject({ sideWidth: 50, mainWidth: 99, checklistRows: 3 });
    expect(layoutFor(300, 60, () => 2, 0)).toMatchObject({ sideWidth: 72 });
    // The checklist is measured at the side column's width, and is capped at a share of the body.
    const widths: number[] = [];
    expect(layoutFor(200, 60, (w) => (widths.push(w), 80), 0).checklistRows).toBe(24);
    expect(widths).toEqual([66]);
    expect(layoutFor(80, 24, () => 1, 0)).toMatchObject({ twoColumns: false, sideWidth: 80, checklistRows: 2 });
  });

  it("wraps a long checklist item under its text instead of cutting it", () => {
    const long = "the clock is injected into the session refresher so the test controls time and never waits on a real timer";
    const items = [
      { id: "1", description: "test reproduces the flake", status: "done" as const },
      { id: "2", description: long, status: "pending" as const },
    ];
    const store = busyStore([event("checklist.set", { items }, 3)]);
    const { text } = frame(<SessionView store={store} onQuit={() => {}} size={{ columns: 120, rows: 40 }} now={NOW} />);
    const side = text()
      .split("\n")
      .map((l) => l.slice(0, 40).trimEnd());
    const at = side.findIndex((l) => l.startsWith("[ ] 2. the clock is injected"));
    expect(at).toBeGreaterThan(0);
    const wrapped = side
      .slice(at, at + 4)
      .join(" ")
      .replace(/\s+/g, " ");
    expect(wrapped).toContain("never waits on a real timer");
    expect(side[at + 1]).toMatch(/^ {4}\S/);
  });
});
