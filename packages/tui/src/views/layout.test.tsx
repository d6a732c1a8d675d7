import { describe, expect, it } from "vitest";
import { busyStore, event, NOW } from "../test-support/fixtures.js";
import { frame, settle } from "../test-support/render-view.js";
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

  it("lists the last checkpoint's files in the side column of a tall two-column view, up to a share of the body", () => {
    expect(layoutFor(200, 60, () => 2, 0, 4)).toMatchObject({ filesRows: 5 });
    expect(layoutFor(200, 60, () => 2, 0, 80)).toMatchObject({ filesRows: 16 });
    expect(layoutFor(200, 60, () => 2, 0, 0)).toMatchObject({ filesRows: 0 });
    expect(layoutFor(120, 24, () => 2, 0, 4)).toMatchObject({ filesRows: 0 });
    expect(layoutFor(80, 60, () => 2, 0, 4)).toMatchObject({ filesRows: 0 });
  });

  it("shows the files pane at 200x60, read once for the last checkpoint's commit", async () => {
    const diff =
      "abc hatloop\n\ndiff --git a/src/clock.ts b/src/clock.ts\n--- a/src/clock.ts\n+++ b/src/clock.ts\n@@ -1 +1,2 @@\n-a\n+b\n+c\n";
    const asked: string[] = [];
    const changes = { diff: async (commit: string) => (asked.push(commit), diff), path: async () => null };
    const store = busyStore([event("checkpoint.saved", { seq: 2, reason: "interval", commit: "c2", contextTokens: 1 }, 3)]);
    const { text } = frame(<SessionView store={store} onQuit={() => {}} size={{ columns: 200, rows: 60 }} now={NOW} changes={changes} />);
    await settle(() => text().includes("src/clock.ts"));
    expect(text()).toMatch(/Files · checkpoint #2 \(f\)/);
    expect(text()).toMatch(/src\/clock\.ts \+2 -1/);
    expect(asked).toEqual(["c2"]);
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
