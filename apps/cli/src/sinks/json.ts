import type { EventSink } from "@hatloop/core";
import { jsonText } from "../output/print.js";

/** JSONL: every loop event as one line; its `v` is the event schema version (EVENT_VERSION). */
export function jsonSink(write: (line: string) => void): EventSink {
  return (event) => write(jsonText(event));
}
