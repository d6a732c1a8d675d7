import type { LoopEvent } from "../events.js";
import type { Store } from "../store/port.js";
import { toLoopEvent } from "./event-persister.js";

// Follows a session's events as they are stored, for watchers in another process: polls the events
// table (cheap: an indexed range scan after the last id) every `intervalMs`. With the loop flushing
// every 150 ms, an event reaches a watcher in well under a second on both databases.

export interface FollowOptions {
  afterId?: number;
  intervalMs?: number;
  signal?: AbortSignal;
}

export async function followEvents(store: Store, sessionId: string, onEvents: (events: LoopEvent[], lastId: number) => void, options: FollowOptions = {}): Promise<void> {
  let after = options.afterId ?? 0;
  const interval = options.intervalMs ?? 250;
  while (!options.signal?.aborted) {
    const batch = await store.events.after(sessionId, after, 1000);
    if (batch.length) {
      after = batch.at(-1)!.id;
      onEvents(batch.map(toLoopEvent), after);
      if (batch.length === 1000) continue; // more waiting: no pause
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, interval);
      options.signal?.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
  }
}
