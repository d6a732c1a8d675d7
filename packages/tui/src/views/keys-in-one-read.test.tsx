import { describe, expect, it } from "vitest";
import type { LoopEvent } from "@hatloop/core";
import { busyStore, event, NOW } from "../test-support/fixtures.js";
import { frame, settle, tick } from "../test-support/render-view.js";
import { SessionList, type ListRow } from "./SessionList.js";
import { SessionView, type LoopControls } from "./SessionView.js";

// Keys that reach the view in one read (typed fast, pasted, sent by a script) do what the same keys
// do one read each: every key counts, in order.

const SIZE = { columns: 100, rows: 30 };

function controls(): LoopControls & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    paused: false,
    pause: () => calls.push("pause"),
    unpause: () => calls.push("unpause"),
    requestStop: () => calls.push("stop"),
    interrupt: () => calls.push("interrupt"),
    steer: (t: string) => calls.push(`steer:${t}`),
    answer: (t: string) => calls.push(`answer:${t}`),
  };
}

/** Six iterations of 12 tool calls each: more than a screen, so [ and ] move the view. */
const iterations: LoopEvent[] = Array.from({ length: 6 }, (_, n) => [
  event("iteration.start", { hat: "creator" }, n + 2),
  ...Array.from({ length: 12 }, (_, i) =>
    event("tool.call", { id: `c${n}-${i}`, name: "read_file", summary: `it${n + 2}-file${i}` }, n + 2),
  ),
]).flat();

/** The run view after `chunks`, each written in one read; the screen and the loop's calls once `until` holds. */
async function viewAfter(chunks: string[], until: (screen: string, calls: string[]) => boolean) {
  const c = controls();
  const { app, text } = frame(<SessionView store={busyStore(iterations)} controls={c} onQuit={() => {}} size={SIZE} now={NOW} />);
  for (const chunk of chunks) {
    app.stdin.write(chunk);
    await tick();
  }
  await settle(() => until(text(), c.calls));
  const screen = text();
  app.unmount();
  return { screen, calls: c.calls };
}

const scrolled = (screen: string) => /Activity \(scrolled (\d+) up/.exec(screen)?.[1];

/** The screen after `presses` presses of [, each read alone and waited for until the view moved. */
async function oneAtATime(presses: number): Promise<string> {
  const { app, text } = frame(<SessionView store={busyStore(iterations)} controls={controls()} onQuit={() => {}} size={SIZE} now={NOW} />);
  let last: string | undefined;
  for (let i = 0; i < presses; i++) {
    app.stdin.write("[");
    await settle(() => scrolled(text()) !== undefined && scrolled(text()) !== last);
    last = scrolled(text());
  }
  const screen = text();
  app.unmount();
  return screen;
}

describe("keys read at once, in the run view", () => {
  it("/abc opens the search with abc typed", async () => {
    const { screen } = await viewAfter(["/abc"], (s) => s.includes("/abc"));
    expect(screen).toMatch(/^\/abc/m);
  });

  it("[[[ moves three iterations back, as three [ do", async () => {
    const one = { screen: await oneAtATime(3) };
    const once = { screen: await oneAtATime(1) };
    const atOnce = await viewAfter(["[[["], (s) => scrolled(s) === scrolled(one.screen));
    expect(Number(scrolled(one.screen))).toBeGreaterThan(Number(scrolled(once.screen)));
    expect(scrolled(atOnce.screen)).toBe(scrolled(one.screen));
    expect(atOnce.screen).toBe(one.screen);
  });

  it("Ctrl-A and Ctrl-E among the text edit the steering draft where they say", async () => {
    const { calls } = await viewAfter([":", "world\u0001hello \u0005!\r"], (_, sent) => sent.length > 0);
    expect(calls).toEqual(["steer:hello world!"]);
  });

  it("a paste's line breaks join its lines, and only the read's last Enter sends: its letters are not the view's keys", async () => {
    const { calls } = await viewAfter([":first line\rs second\np\r", "p"], (_, sent) => sent.length > 1);
    expect(calls).toEqual(["steer:first line s second p", "pause"]);
  });
});

const row = (id: string, status: string): ListRow => ({
  id: id.padEnd(36, "0"),
  status,
  hat: "editor",
  iteration: "1",
  cost: "$0.00",
  updated: "now",
  title: `task ${id}`,
  live: false,
});

describe("keys read at once, in the ls dashboard", () => {
  const rows = [row("aaaaaaaa", "running"), row("bbbbbbbb", "paused"), row("cccccccc", "completed"), row("dddddddd", "completed")];

  /** The filter the list shows after `chunks`, each written in one read. */
  async function filterAfter(chunks: string[]) {
    const { app, text } = frame(<SessionList rows={rows} onChoose={() => {}} size={SIZE} />);
    const filterOf = () => /filter: (\w+)/.exec(text())?.[1];
    for (const chunk of chunks) {
      const before = filterOf();
      app.stdin.write(chunk);
      await settle(() => filterOf() !== before);
    }
    const filter = filterOf();
    app.unmount();
    return filter;
  }

  it("fff cycles the filter three times, as three f do", async () => {
    const oneByOne = await filterAfter(["f", "f", "f"]);
    expect(oneByOne).not.toBe(await filterAfter(["f", "f"]));
    expect(await filterAfter(["fff"])).toBe(oneByOne);
    expect(await filterAfter(["ff", "f"])).toBe(oneByOne);
  });

  it("moves as many rows as j is pressed, and Enter then chooses that row", async () => {
    const chosen: unknown[] = [];
    const { app } = frame(<SessionList rows={rows} onChoose={(c) => chosen.push(c)} size={SIZE} />);
    app.stdin.write("jjk\r");
    await settle(() => chosen.length > 0);
    expect(chosen).toEqual([{ action: "show", id: rows[1]!.id }]);
    app.unmount();
  });
});
