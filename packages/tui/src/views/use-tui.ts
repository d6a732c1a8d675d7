import { useEffect, useState } from "react";
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

/** A clock for the elapsed time, ticking once a second while the run is live. */
export function useNow(live: boolean, fixedNow?: number) {
  const [now, setNow] = useState(() => fixedNow ?? Date.now());
  useEffect(() => {
    if (!live || fixedNow !== undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [live, fixedNow]);
  return fixedNow ?? now;
}
