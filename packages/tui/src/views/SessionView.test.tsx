import { describe, expect, it, vi } from "vitest";
import { createTuiStore } from "../state/store.js";
import { initialState } from "../state/initial.js";
import { busyStore, event, NOW, snapshot } from "../test-support/fixtures.js";
import { frame, settle, tick } from "../test-support/render-view.js";
import { SessionView, type LoopControls } from "./SessionView.js";

const NARROW = { columns: 80, rows: 24 };
const WIDE = { columns: 140, rows: 40 };

function controls(): LoopControls & { calls: string[] } {
  const calls: string[] = [];
  let paused = false;
  return {
    calls,
    get paused() {
      return paused;
    },
    pause: () => ((paused = true), calls.push("pause")),
    unpause: () => ((paused = false), calls.push("unpause")),
    requestStop: () => calls.push("stop"),
    interrupt: () => calls.push("interrupt"),
    steer: (t: string) => calls.push(`steer:${t}`),
    answer: (t: string) => calls.push(`answer:${t}`),
  };
}

describe("SessionView panes", () => {
  it("shows an empty session before the first event", () => {
    const store = createTuiStore(initialState(snapshot(), NOW), { frameMs: 0 });
    const { text } = frame(<SessionView store={store} onQuit={() => {}} size={NARROW} now={NOW} />);
    expect(text()).toContain("hatloop watch · 1a2b3c4d · make the flaky auth test deterministic");
    expect(text()).toContain("(no items yet)");
    expect(text()).toContain("(waiting for the first event)");
    expect(text()).toContain("context");
    expect(text()).toMatch(/0% green 0\/200k tokens/);
  });

  it.each([
    ["narrow", NARROW],
    ["wide", WIDE],
  ] as const)("renders a running session, %s, within the terminal", (_name, size) => {
    const { text } = frame(<SessionView store={busyStore()} controls={controls()} onQuit={() => {}} size={size} now={NOW} />);
    const screen = text();
    expect(screen).toContain("hat creator · iteration 3/50");
    expect(screen).toContain("running");
    expect(screen).toMatch(/81% warn 162k\/200k tokens/);
    expect(screen).toContain("cost $0.42 / $5.00");
    expect(screen).toContain("hats: planner → creator@2");
    expect(screen).toContain("Checklist 1/2");
    expect(screen).toContain("[x] 1. test reproduces the flake");
    expect(screen).toContain("[ ] 2. clock is injected");
    expect(screen).toContain("> run_command npm test");
    expect(screen).toContain("< run_command ERROR");
    expect(screen).toContain("The test fails because of real timers.");
    expect(screen).toContain("p pause");
    const lines = screen.split("\n");
    expect(lines.length).toBeLessThanOrEqual(size.rows);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(size.columns);
    if (size === WIDE) expect(screen).toContain("## Current Plan");
    else expect(screen).not.toContain("## Current Plan");
  });

  it.each([
    ["paused", event("session.status", { status: "paused", reason: "paused by the user" }, 3), "paused (paused by the user)"],
    ["budget hit", event("budget.exceeded", { budget: "iterations", limit: 50, value: 50 }, 3), "budget reached: iterations 50/50"],
    [
      "failed",
      event("session.end", { status: "failed", reason: "model: invalid x-api-key", iterations: 3, costUsd: 0.42 }, 3),
      "failed (model: invalid x-api-key)",
    ],
    [
      "completed",
      event("session.end", { status: "completed", reason: "task complete: quality gates passed", iterations: 3, costUsd: 0.42 }, 3),
      "completed (task complete: quality gates passed)",
    ],
  ] as const)("shows a %s session", (_name, last, expected) => {
    const { text } = frame(<SessionView store={busyStore([last])} onQuit={() => {}} size={WIDE} now={NOW} />);
    expect(text()).toContain(expected);
  });

  it("streams model text live, bounded, and drops the oldest activity beyond the buffer", () => {
    const store = busyStore();
    for (let i = 0; i < 5_000; i++) store.push(event("tool.call", { id: `x${i}`, name: "read_file", summary: `f${i}.ts` }, 4));
    store.push(event("model.text", { text: "partial answer so far" }, 5));
    const { text } = frame(<SessionView store={store} onQuit={() => {}} size={NARROW} now={NOW} />);
    expect(text()).toContain("partial answer so far");
    expect(text()).toContain("> read_file f4999.ts");
    expect(store.getState().activity.length).toBeLessThanOrEqual(1_000);
    expect(store.getState().dropped).toBeGreaterThan(4_000);
  });
});

describe("SessionView keys", () => {
  it("shows the agent's question while it waits, answers it with a, and says how to answer when watching", async () => {
    const asked = [event("session.status", { status: "waiting", reason: "Keep the v1 API or drop it?" }, 3)];
    const c = controls();
    const { app, text } = frame(<SessionView store={busyStore(asked)} controls={c} onQuit={() => {}} size={NARROW} now={NOW} />);
    // The question has its own line; the header says waiting and keeps runtime and cost (issue 28).
    expect(text()).toMatch(/\? waiting · hat \S+ · iteration 3/);
    expect(text()).not.toContain("waiting (Keep");
    expect(text()).toMatch(/ \? {2}Keep the v1 API or drop it\? {2}\(a answers\)/);
    expect(text()).toContain("a answer");
    app.stdin.write("a");
    await settle(() => text().includes("answer>"));
    expect(text()).toContain("answer>");
    for (const ch of "drop it") app.stdin.write(ch);
    await tick();
    app.stdin.write("\r");
    await settle(() => text().includes("answer sent: drop it"));
    expect(c.calls).toEqual(["answer:drop it"]);
    expect(text()).toContain("answer sent: drop it");

    const watching = frame(<SessionView store={busyStore(asked)} onQuit={() => {}} size={NARROW} now={NOW} />);
    expect(watching.text()).toContain('(answer with: hatloop answer 1a2b3c4d "...")');
    watching.app.stdin.write("a");
    await tick();
    expect(watching.text()).not.toContain("answer>");
  });

  it("pauses and continues, stops, steers, scrolls, helps and asks before quitting", async () => {
    const c = controls();
    const onQuit = vi.fn();
    const more = Array.from({ length: 60 }, (_, i) => event("tool.call", { id: `m${i}`, name: "read_file", summary: `file ${i}` }, 3));
    const { app, text } = frame(<SessionView store={busyStore(more)} controls={c} onQuit={onQuit} size={WIDE} now={NOW} />);
    app.stdin.write("p");
    await tick();
    app.stdin.write("p");
    await tick();
    expect(c.calls).toEqual(["pause", "unpause"]);
    app.stdin.write(":");
    await settle(() => text().includes("steer>"));
    expect(text()).toContain("steer>");
    for (const ch of "use fake timers") app.stdin.write(ch);
    await tick();
    app.stdin.write("\r");
    await settle(() => c.calls.includes("steer:use fake timers") && text().includes("steering queued"));
    expect(c.calls).toContain("steer:use fake timers");
    expect(text()).toContain("steering queued for the next iteration: use fake timers");
    app.stdin.write("?");
    await settle(() => text().includes("switch focus: activity, checklist, scratchpad"));
    expect(text()).toContain("switch focus: activity, checklist, scratchpad");
    app.stdin.write("x");
    await tick();
    app.stdin.write("\u001b[A");
    await settle(() => /Activity \(scrolled 1 up/.test(text()));
    expect(text()).toMatch(/Activity \(scrolled 1 up/);
    app.stdin.write("s");
    await settle(() => c.calls.includes("stop"));
    expect(c.calls).toContain("stop");
    app.stdin.write("q");
    await settle(() => text().includes("Quit? The loop stops now and pauses with a checkpoint"));
    expect(text()).toContain("Quit? The loop stops now and pauses with a checkpoint");
    app.stdin.write("n");
    await tick();
    expect(onQuit).not.toHaveBeenCalled();
    app.stdin.write("q");
    await tick();
    app.stdin.write("y");
    await settle(() => onQuit.mock.calls.length > 0);
    expect(onQuit).toHaveBeenCalledTimes(1);
  });

  it("steers with text, Backspaces and Enter arriving in one read; Esc discards a draft; Ctrl-C works with the prompt open", async () => {
    const c = controls();
    const { app, text } = frame(<SessionView store={busyStore()} controls={c} onQuit={() => {}} size={NARROW} now={NOW} />);
    app.stdin.write(":");
    await tick();
    app.stdin.write("throw away");
    await tick();
    app.stdin.write("\u001b");
    await tick();
    await tick();
    app.stdin.write(":");
    await tick();
    app.stdin.write("use fakx\x7fe timers\r");
    await settle(() => c.calls.length > 0 && !text().includes("steer>"));
    expect(c.calls).toEqual(["steer:use fake timers"]);
    expect(text()).not.toContain("steer>");
    app.stdin.write(":");
    await tick();
    app.stdin.write("\u0003");
    await settle(() => c.calls.includes("interrupt") && !text().includes("steer>"));
    expect(c.calls).toContain("interrupt");
    expect(text()).not.toContain("steer>");
  });

  it("says interrupting once: the CLI's handler says it when there is one, the view otherwise", async () => {
    const notices = (store: ReturnType<typeof busyStore>) =>
      store.getState().activity.filter((a) => a.text.startsWith("interrupting")).length;
    const handled = busyStore();
    const onInterrupt = vi.fn();
    const withHandler = frame(
      <SessionView store={handled} controls={controls()} onInterrupt={onInterrupt} onQuit={() => {}} size={NARROW} now={NOW} />,
    );
    withHandler.app.stdin.write("\u0003");
    await settle(() => onInterrupt.mock.calls.length > 0);
    expect(onInterrupt).toHaveBeenCalledTimes(1);
    expect(notices(handled)).toBe(0);
    const alone = busyStore();
    const c = controls();
    const without = frame(<SessionView store={alone} controls={c} onQuit={() => {}} size={NARROW} now={NOW} />);
    without.app.stdin.write("\u0003");
    await settle(() => without.text().includes("interrupting: writing a checkpoint"));
    expect(c.calls).toEqual(["interrupt"]);
    expect(notices(alone)).toBe(1);
  });

  it("detaches at once when watching, and offers no loop controls", async () => {
    const onQuit = vi.fn();
    const { app, text } = frame(<SessionView store={busyStore()} onQuit={onQuit} size={NARROW} now={NOW} />);
    expect(text()).toContain("q detach");
    expect(text()).not.toContain("p pause");
    app.stdin.write("q");
    await settle(() => onQuit.mock.calls.length > 0);
    expect(onQuit).toHaveBeenCalledTimes(1);
  });

  it("focuses the scratchpad with Tab in a narrow terminal", async () => {
    const { app, text } = frame(<SessionView store={busyStore()} onQuit={() => {}} size={NARROW} now={NOW} />);
    app.stdin.write("\t");
    await tick();
    app.stdin.write("\t");
    await settle(() => text().includes("## Current Plan"));
    expect(text()).toContain("## Current Plan");
  });
});
