import { parseLineSignal, signalLine } from "./line.js";
import type { ChecklistSignal, Signal } from "./types.js";

// Checklist signals act while the response streams, as soon as their line is complete, so progress
// shows live; the pass over the whole response afterwards skips what was already handled. Other
// signals wait for the whole response (a scratchpad or an event is only meaningful complete).

export class StreamingSignalDetector {
  private buffer = "";
  private readonly handled = new Set<string>();

  /** Feeds a text delta; returns the checklist signals whose line just completed. */
  push(delta: string): ChecklistSignal[] {
    this.buffer += delta;
    const found: ChecklistSignal[] = [];
    let newline = this.buffer.indexOf("\n");
    while (newline !== -1) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      const signal = this.checklistSignal(line);
      if (signal && this.claim(signal)) found.push(signal);
      newline = this.buffer.indexOf("\n");
    }
    return found;
  }

  /** A retried response starts over: forget the partial line, keep what was applied. */
  reset(): void {
    this.buffer = "";
  }

  /** Drops checklist signals already applied during streaming from a full parse. */
  unhandled(signals: Signal[]): Signal[] {
    return signals.filter((s) => !(isChecklist(s) && this.handled.has(key(s))));
  }

  private checklistSignal(line: string): ChecklistSignal | null {
    const body = signalLine(line);
    if (!body?.startsWith("CHECKLIST_")) return null;
    const signal = parseLineSignal(body);
    return signal && isChecklist(signal) ? signal : null;
  }

  private claim(signal: ChecklistSignal): boolean {
    const k = key(signal);
    if (this.handled.has(k)) return false;
    this.handled.add(k);
    return true;
  }
}

function isChecklist(signal: Signal): signal is ChecklistSignal {
  return signal.kind === "checklist_add" || signal.kind === "checklist_done" || signal.kind === "checklist_failed";
}

function key(signal: ChecklistSignal): string {
  return `${signal.kind}:${signal.id}`;
}
