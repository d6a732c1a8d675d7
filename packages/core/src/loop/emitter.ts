import { EVENT_VERSION, type EventData, type EventSink, type LoopEventType, type LoopEvent } from "../events.js";

/** Stamps events with session, iteration and time, and fans them out to every sink. */
export class Emitter {
  iteration = 0;

  constructor(
    private readonly sessionId: string,
    private readonly sinks: EventSink[],
    private readonly now: () => number,
  ) {}

  emit<K extends LoopEventType>(type: K, data: EventData<K>): void {
    const event = { v: EVENT_VERSION, sessionId: this.sessionId, iteration: this.iteration, ts: this.now(), type, data } as LoopEvent;
    for (const sink of this.sinks) sink(event);
  }
}
