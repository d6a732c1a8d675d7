import { parseEvent } from "./event.js";
import { malformed, parseLineSignal, signalLine } from "./line.js";
import type { Signal } from "./types.js";

/**
 * Every signal in a complete response, in order. SCRATCHPAD runs from its marker to the next signal
 * line or the end and only the first counts; only the first EVENT counts (a response routes once).
 */
export function parseSignals(text: string, knownTopics: ReadonlySet<string>): Signal[] {
  const lines = text.split("\n");
  const signals: Signal[] = [];
  let sawScratchpad = false;
  let sawEvent = false;
  for (let i = 0; i < lines.length; i++) {
    const body = signalLine(lines[i]!);
    if (body === null) continue;
    if (body.startsWith("SCRATCHPAD:")) {
      let end = i + 1;
      while (end < lines.length && signalLine(lines[end]!) === null) end++;
      const content = [body.slice("SCRATCHPAD:".length), ...lines.slice(i + 1, end)].join("\n").trim();
      if (sawScratchpad) signals.push(malformed("SCRATCHPAD", body, "only the first SCRATCHPAD of a response counts"));
      else if (!content) signals.push(malformed("SCRATCHPAD", body, "empty scratchpad"));
      else signals.push({ kind: "scratchpad", content });
      sawScratchpad = true;
      i = end - 1;
    } else if (body.startsWith("EVENT:")) {
      if (sawEvent) {
        signals.push(malformed("EVENT", body, "only the first EVENT of a response counts"));
        continue;
      }
      sawEvent = true;
      signals.push(parseEvent([body, ...lines.slice(i + 1)].join("\n"), knownTopics));
    } else {
      const signal = parseLineSignal(body);
      if (signal) signals.push(signal);
    }
  }
  return signals;
}
