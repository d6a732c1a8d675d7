import { EVENT_VERSION, type EventData, type EventSink, type LoopEventType, type LoopEvent } from "./events.js";

/** An event as every sink receives it: stamped with its session, iteration, time and version. */
export function stampEvent<K extends LoopEventType>(
  sessionId: string,
  iteration: number,
  ts: number,
  type: K,
  data: EventData<K>,
): LoopEvent {
  return { v: EVENT_VERSION, sessionId, iteration, ts, type, data } as LoopEvent;
}

/**
 * Emits the events that come from outside the loop (hooks, pull requests, database outages), stamped
 * with the iteration the loop's own events last carried. The loop emits only through its write path
 * (loop/commit.ts).
 */
export class Emitter {
  iteration = 0;

  constructor(
    private readonly sessionId: string,
    private readonly sinks: EventSink[],
    private readonly now: () => number,
  ) {}

  emit<K extends LoopEventType>(type: K, data: EventData<K>): void {
    const event = stampEvent(this.sessionId, this.iteration, this.now(), type, data);
    for (const sink of this.sinks) sink(event);
  }
}
