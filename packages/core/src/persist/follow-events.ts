import type { LoopEvent } from "../events.js";
import type { Store, StoredEvent } from "../store/port.js";
import { eventReader, type EventReader } from "./read-events.js";

// Follows a session's events as they are stored, for watchers in another process. Where the store
// can push (Postgres LISTEN/NOTIFY) a notification wakes the follower at once; otherwise, and as a
// safety net, it polls (an indexed range scan after the last id, well under a millisecond) every
// `intervalMs` (100 ms without notifications). With the loop
// flushing every 150 ms, an event reaches a watcher in well under a second on both databases.
// Events are checked as they are read (see read-events.ts): an unreadable one is skipped, and
// `reader` (shared with a tail read before following) reports it once.

export interface FollowOptions {
  afterId?: number;
  intervalMs?: number;
  signal?: AbortSignal;
  /** Checks what is read; by default unreadable events are skipped without a report. */
  reader?: EventReader;
}

export async function followEvents(
  store: Store,
  sessionId: string,
  onEvents: (events: LoopEvent[], lastId: number) => void,
  options: FollowOptions = {},
): Promise<void> {
  const reader = options.reader ?? eventReader(() => {});
  await followStoredEvents(store, sessionId, (batch) => onEvents(reader.read(batch), batch.at(-1)!.id), options);
}

/**
 * Follows the stored events of a session, or of every session (null: one follower for all, the web
 * console), handing each batch over as stored.
 */
export async function followStoredEvents(
  store: Store,
  sessionId: string | null,
  onBatch: (batch: StoredEvent[]) => void,
  options: Omit<FollowOptions, "reader"> = {},
): Promise<void> {
  let after = options.afterId ?? 0;
  // A notification that arrives while a query runs is kept, so the next wait ends at once.
  let pending: boolean;
  let wake: (() => void) | null = null;
  const unsubscribe = await store.events.subscribe?.(sessionId, () => {
    pending = true;
    wake?.();
  });
  const interval = options.intervalMs ?? (unsubscribe ? 1_000 : 100);
  try {
    while (!options.signal?.aborted) {
      pending = false;
      const batch = sessionId === null ? await store.events.since(after, 1000) : await store.events.after(sessionId, after, 1000);
      if (batch.length) {
        after = batch.at(-1)!.id;
        onBatch(batch);
        if (batch.length === 1000) continue; // more waiting: no pause
      }
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by a callback or another task while this one awaited; TypeScript keeps the narrowing from before
      if (!pending) await waitUpTo(interval);
    }
  } finally {
    await unsubscribe?.();
  }

  function waitUpTo(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", done);
        wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      wake = done;
      options.signal?.addEventListener("abort", done, { once: true });
    });
  }
}
