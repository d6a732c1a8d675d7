import { parseLineSignal, signalLine } from "./line.js";
import type { ChecklistSignal, Signal } from "./types.js";

// Checklist signals act while the response streams, as soon as their line is complete, so progress
// shows live; the pass over the whole response afterwards skips what was already handled. Other
// signals wait for the whole response (a scratchpad or an event is only meaningful complete).
// Every line counts, repeats included: "DONE:1, FAILED:1, DONE:1" ends done, as written.

export class StreamingSignalDetector {
  /** The pieces of the line not yet complete: only each new delta is searched for a newline, so a long line is not rescanned per delta. */
  private partial: string[] = [];
  /** The checklist signals of this attempt handed out so far, in order. */
  private streamed: ChecklistSignal[] = [];

  /** Feeds a text delta; returns the checklist signals whose line just completed. */
  push(delta: string): ChecklistSignal[] {
    const found: ChecklistSignal[] = [];
    let start = 0;
    for (let newline = delta.indexOf("\n"); newline !== -1; newline = delta.indexOf("\n", start)) {
      this.partial.push(delta.slice(start, newline));
      const signal = this.checklistSignal(this.partial.join(""));
      if (signal) found.push(signal);
      this.partial = [];
      start = newline + 1;
    }
    if (start < delta.length) this.partial.push(delta.slice(start));
    this.streamed.push(...found);
    return found;
  }

  /** A retried response starts over; what the failed attempt applied stays applied (applying again changes nothing). */
  reset(): void {
    this.partial = [];
    this.streamed = [];
  }

  /**
   * A full parse without the checklist signals applied during streaming. They are matched in order
   * by kind and id (the full text may be redacted), so a line the stream did not see is kept.
   */
  unhandled(signals: Signal[]): Signal[] {
    let next = 0;
    return signals.filter((s) => {
      const streamed = this.streamed[next];
      if (!streamed || !isChecklist(s) || s.kind !== streamed.kind || s.id !== streamed.id) return true;
      next++;
      return false;
    });
  }

  private checklistSignal(line: string): ChecklistSignal | null {
    const body = signalLine(line);
    if (!body?.startsWith("CHECKLIST_")) return null;
    const signal = parseLineSignal(body);
    return signal && isChecklist(signal) ? signal : null;
  }
}

function isChecklist(signal: Signal): signal is ChecklistSignal {
  return signal.kind === "checklist_add" || signal.kind === "checklist_done" || signal.kind === "checklist_failed";
}
