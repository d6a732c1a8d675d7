import { useEffect, useRef, useState } from "react";
import { useStdout } from "ink";
import type { TuiStore } from "../state/store.js";

/** Re-renders on the store's throttled ticks. */
export function useTuiState(store: TuiStore) {
  const [, setVersion] = useState(0);
  useEffect(() => store.subscribe(() => setVersion((v) => v + 1)), [store]);
  return store.getState();
}

/** The terminal size (or a fixed one in tests), following resizes. */
export function useTerminalSize(fixed?: { columns: number; rows: number }) {
  const { stdout } = useStdout();
  const read = () => fixed ?? { columns: stdout.columns || 80, rows: stdout.rows || 24 };
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (fixed) return;
    const onResize = () => setSize(read());
    stdout.on("resize", onResize);
    return () => void stdout.off("resize", onResize);
  }, [stdout, fixed]);
  return size;
}

/**
 * The time for the elapsed clock: read at each render, so any frame shows it current, and a frame of
 * its own once a second while the run is live only when nothing else drew one in that second (while
 * text streams, frames come 4 times a second and the clock's own would be a fifth).
 */
export function useNow(live: boolean, fixedNow?: number) {
  const [, setTick] = useState(0);
  const drawn = useRef(0);
  useEffect(() => {
    if (!live || fixedNow !== undefined) return;
    const timer = setInterval(() => {
      if (Date.now() - drawn.current >= CLOCK_MS - 100) setTick((t) => t + 1);
    }, CLOCK_MS);
    return () => clearInterval(timer);
  }, [live, fixedNow]);
  if (fixedNow !== undefined) return fixedNow;
  drawn.current = Date.now();
  return drawn.current;
}

const CLOCK_MS = 1_000;
