import { afterEach, describe, expect, it, vi } from "vitest";
import { setMonochrome } from "../components/theme.js";
import type { DetailRef } from "../state/types.js";
import { busyStore, event, NOW } from "../test-support/fixtures.js";
import { frame, settle, tick } from "../test-support/render-view.js";
import { SessionView } from "./SessionView.js";

const WIDE = { columns: 140, rows: 40 };
const NARROW = { columns: 80, rows: 24 };
const UP = "\u001b[A";
const END = "\u001b[F";
const HOME = "\u001b[H";
const ESC = "\u001b";

const diffCall = [
  event("tool.call", { id: "t9", name: "git_diff", summary: "" }, 3),
  event("tool.result", { id: "t9", name: "git_diff", isError: false, chars: 900, durationMs: 4, preview: "diff --git a/src/clock.ts" }, 3),
];
const fullDiff = [
  "diff --git a/src/clock.ts b/src/clock.ts",
  "@@ -1,40 +1,40 @@",
  ...Array.from({ length: 40 }, (_, i) => `+line ${i + 1}`),
].join("\n");

const reads = Array.from({ length: 40 }, (_, i) =>
  event("tool.call", { id: `r${i}`, name: "read_file", summary: i === 5 ? "needle-old.ts" : i === 30 ? "needle-new.ts" : `f${i}.ts` }, 3),
);

afterEach(() => setMonochrome(false));

describe("opening an activity entry", () => {
  it("opens the bottom entry whole with Enter, loads what the event did not carry, scrolls it, and Esc returns", async () => {
    const details = vi.fn(async (ref: DetailRef) => (ref.kind === "tool" ? fullDiff : "?"));
    const { app, text } = frame(<SessionView store={busyStore(diffCall)} onQuit={() => {}} details={details} size={NARROW} now={NOW} />);
    app.stdin.write("\r");
    await settle(() => text().includes("+line 1\n"));
    expect(details).toHaveBeenCalledWith({ kind: "tool", toolId: "t9", iteration: 3 });
    expect(text()).toMatch(/tool result · git_diff · 900 chars · iteration 3 · lines 1-\d+ of 42/);
    expect(text()).not.toContain("+line 40");
    expect(text()).toContain("Esc back");
    app.stdin.write(END);
    await settle(() => text().includes("+line 40"));
    expect(text()).not.toContain("+line 1\n");
    app.stdin.write(HOME);
    await settle(() => text().includes("+line 1\n"));
    app.stdin.write(ESC);
    await settle(() => text().includes("Activity"));
    expect(text()).not.toContain("+line 1\n");
    expect(text()).toContain("< git_diff ok");
  });

  it("marks the entry Enter opens once scrolled up, also without colour, and opens it", async () => {
    setMonochrome(true);
    const { app, text } = frame(<SessionView store={busyStore([...reads, ...diffCall])} onQuit={() => {}} size={WIDE} now={NOW} />);
    expect(text()).not.toContain("▸");
    app.stdin.write(UP);
    await settle(() => text().includes("▸"));
    expect(text()).toMatch(/▸ *> git_diff/);
    expect(text()).not.toMatch(/▸ *< git_diff/);
    app.stdin.write("\r");
    await settle(() => text().includes("tool call · git_diff"));
    // Without a loader, what the event carried is shown.
    expect(text()).toContain("git_diff");
    app.stdin.write("q");
    await settle(() => text().includes("▸"));
    expect(text()).toMatch(/▸ *> git_diff/);
  });

  it("shows the response being streamed from its start when scrolled up", async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `streamed line ${i + 1}`).join("\n");
    const { app, text } = frame(
      <SessionView store={busyStore([event("model.text", { text: lines }, 4)])} onQuit={() => {}} size={NARROW} now={NOW} />,
    );
    expect(text()).toContain("streamed line 40");
    expect(text()).not.toContain("streamed line 1\n");
    for (let i = 0; i < 4; i++) app.stdin.write("\u001b[5~");
    await settle(() => text().includes("streamed line 1\n"));
    expect(text()).toContain("streamed line 1\n");
    app.stdin.write("\r");
    await settle(() => text().includes("model text · iteration 4 · streaming"));
  });
});

describe("searching the activity", () => {
  it("jumps to the newest match with / and Enter, steps with n and N, says no match, and Esc clears", async () => {
    const { app, text } = frame(<SessionView store={busyStore(reads)} onQuit={() => {}} size={NARROW} now={NOW} />);
    app.stdin.write("/");
    await settle(() => text().includes("Enter find"));
    app.stdin.write("NEEDLE");
    await tick();
    app.stdin.write("\r");
    await settle(() => text().includes("match 1/2"));
    expect(text()).toMatch(/▸.*needle-new\.ts/);
    app.stdin.write("n");
    await settle(() => text().includes("match 2/2"));
    expect(text()).toMatch(/▸.*needle-old\.ts/);
    expect(text()).not.toMatch(/▸.*needle-new\.ts/);
    app.stdin.write("\r");
    await settle(() => text().includes("tool call · read_file · iteration 3"));
    expect(text()).toContain("read_file needle-old.ts");
    app.stdin.write(ESC);
    await settle(() => text().includes("match 2/2"));
    app.stdin.write("N");
    await settle(() => text().includes("match 1/2"));
    app.stdin.write(ESC);
    await settle(() => !text().includes("match 1/2"));
    app.stdin.write(END);
    await settle(() => !text().includes("▸"));
    expect(text()).not.toContain("▸");
    app.stdin.write("/");
    await tick();
    app.stdin.write("no such thing\r");
    await settle(() => text().includes("no match"));
  });
});
