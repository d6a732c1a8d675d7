import type { EventSink } from "@hatloop/core";

/** JSONL: every loop event as one line, with a format version. */
export function jsonSink(write: (line: string) => void): EventSink {
  return (event) => write(JSON.stringify({ v: 1, ...event }));
}
