import { EVENT_VERSION, type EventSink, type LoopEvent } from "../events.js";
import { LeaseLostError, type NewEvent, type Store } from "../store/port.js";

// Writes loop events to the events table without slowing the loop: events queue in memory and go
// out in one insert per flush (every `flushMs`), and consecutive text deltas of one response are
// merged into one event first. A watcher in another terminal sees an event within about flushMs plus
// its own poll interval. A failed write keeps the queue and is retried at the next flush. Secrets are
// redacted by the store (redactingStore), model text as one stream across flushes.

export interface EventPersister {
  sink: EventSink;
  /** Writes everything queued so far. */
  flush(): Promise<void>;
  /** Final flush; stops the timer. */
  close(): Promise<void>;
  /** Errors of failed writes, for the caller to report once. */
  readonly errors: Error[];
}

export function createEventPersister(store: Store, sessionId: string, options: { flushMs?: number } = {}): EventPersister {
  const queue: NewEvent[] = [];
  const errors: Error[] = [];
  /** The first `inFlight` queued events are being written: they must not change any more. */
  let inFlight = 0;
  let writing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => void flush(), options.flushMs ?? 150);
  timer.unref();

  function flush(): Promise<void> {
    writing = writing.then(async () => {
      if (queue.length === 0) return;
      const batch = queue.slice();
      inFlight = batch.length;
      try {
        await store.events.append(sessionId, batch);
        queue.splice(0, batch.length);
      } catch (error) {
        errors.push(error instanceof Error ? error : new Error(String(error)));
        // Fenced out: another runner owns the session, and nothing of ours will ever be written.
        if (error instanceof LeaseLostError) queue.length = 0;
      } finally {
        inFlight = 0;
      }
    });
    return writing;
  }

  function sink(event: LoopEvent): void {
    const last = queue.at(-1);
    if (event.type === "model.text" && queue.length > inFlight && last?.type === "model.text" && last.iteration === event.iteration) {
      (last.payload as { text: string }).text += event.data.text;
      return;
    }
    queue.push({
      iteration: event.iteration,
      type: event.type,
      payload: event.type === "model.text" ? { ...event.data } : event.data,
      version: EVENT_VERSION,
    });
  }

  return {
    sink,
    flush,
    errors,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
