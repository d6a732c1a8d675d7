import type { EventData, LoopEventType } from "../events.js";

/** An event before the write path stamps it (session, iteration, time, version). */
export type Said = { [K in LoopEventType]: { type: K; data: EventData<K> } }[LoopEventType];
