import { Text } from "ink";
import { render } from "ink-testing-library";
import { useState, useEffect } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useNow } from "./use-tui.js";

// The clock draws a frame of its own only in a second with no other frame: while text streams, the
// view draws 4 frames a second and each shows the clock current.

let renders = 0;
let shown = 0;

function Clock({ live, otherFramesMs }: { live: boolean; otherFramesMs: number | null }) {
  const now = useNow(live);
  const [, setOther] = useState(0);
  useEffect(() => {
    if (otherFramesMs === null) return;
    const timer = setInterval(() => setOther((n) => n + 1), otherFramesMs);
    return () => clearInterval(timer);
  }, [otherFramesMs]);
  renders++;
  shown = now;
  return <Text>{String(now)}</Text>;
}

describe("useNow", () => {
  beforeEach(() => {
    // The clocks only: React's scheduler keeps its real timers, so each update renders when it comes.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    renders = 0;
  });
  afterEach(() => vi.useRealTimers());

  /** Renders over 5 s (and a little more, for the last frame to be drawn). */
  async function rendersIn5s(props: { live: boolean; otherFramesMs: number | null }) {
    renders = 0;
    const view = render(<Clock {...props} />);
    const first = renders;
    for (let ms = 0; ms < 5_050; ms += 50) {
      vi.advanceTimersByTime(50);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    view.unmount();
    return { renders: renders - first, shownAgoMs: Date.now() - shown };
  }

  it("draws once a second while nothing else draws, showing the time of the frame", async () => {
    const { renders: drawn, shownAgoMs } = await rendersIn5s({ live: true, otherFramesMs: null });
    expect(drawn).toBe(5);
    expect(shownAgoMs).toBe(50);
    expect((await rendersIn5s({ live: false, otherFramesMs: null })).renders).toBe(0);
  });

  it("adds no frame of its own while other frames come more often than once a second", async () => {
    const withClock = await rendersIn5s({ live: true, otherFramesMs: 300 });
    const without = await rendersIn5s({ live: false, otherFramesMs: 300 });
    expect(without.renders).toBeGreaterThanOrEqual(10);
    expect(withClock.renders).toBe(without.renders);
    // Each of those frames shows the clock current: the last came at 4,800 ms, 250 ms before the end.
    expect(withClock.shownAgoMs).toBe(250);
  });
});
