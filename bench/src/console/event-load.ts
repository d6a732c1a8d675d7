import type { Store } from "@hatloop/core";
import { noticeEvent } from "./seed.js";

// The fleet at work while the pages are measured: batches of events appended to the running
// sessions in turn, `perSecond` appends of `batch` events each (a loop's persister flushes a batch at
// a time), from this process, through the store.

export interface EventLoad {
  /** Stops and resolves when the last append is done; how many events were appended. */
  stop(): Promise<number>;
}

export function startEventLoad(store: Store, sessions: readonly string[], perSecond: number, batch: number): EventLoad {
  // Set by stop() while the loop awaits: a field, which TypeScript does not narrow.
  const state = { stopped: false };
  let appended = 0;
  const everyMs = 1_000 / perSecond;
  const running = (async () => {
    const started = performance.now();
    for (let n = 0; !state.stopped; n++) {
      const id = sessions[n % sessions.length]!;
      await store.events.append(
        id,
        Array.from({ length: batch }, (_, i) => noticeEvent(2, `load ${n}.${i}`)),
      );
      appended += batch;
      // On schedule from the start, so a slow append is caught up rather than slowing the load.
      const wait = started + (n + 1) * everyMs - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  })();
  return {
    async stop() {
      state.stopped = true;
      await running;
      return appended;
    },
  };
}
