import { redactValue } from "./redact-message.js";
import type { EventOf, EventSink, LoopEvent } from "../events.js";
import { StreamRedactor } from "./stream-redactor.js";

// Everything shown of a run (plain lines, JSON lines, the TUI, live or replayed from the database)
// is redacted here before a printer sees it. Streamed model text is redacted as one stream per
// iteration, like its stored copy, so a secret split across deltas or stored fragments is never
// shown whole; the tail it holds back is shown before the next other event, or by end().

export type RedactingSink = EventSink & {
  /** Shows what the model-text stream still holds back (call when no event follows). */
  end(): void;
};

export function redactingSink(next: EventSink): RedactingSink {
  let redactor = new StreamRedactor();
  let streaming: EventOf<"model.text"> | null = null;
  const end = () => {
    if (!streaming) return;
    const tail = redactor.end();
    if (tail) next({ ...streaming, data: { text: tail } });
    streaming = null;
    redactor = new StreamRedactor();
  };
  const sink = (event: LoopEvent) => {
    if (event.type !== "model.text") {
      end();
      next({ ...event, data: redactValue(event.data) } as LoopEvent);
      return;
    }
    if (streaming && (streaming.iteration !== event.iteration || streaming.sessionId !== event.sessionId)) end();
    streaming = event;
    const text = redactor.push(event.data.text);
    if (text) next({ ...event, data: { text } });
  };
  return Object.assign(sink, { end });
}
