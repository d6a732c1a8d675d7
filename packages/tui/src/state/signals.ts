// Signals render once, as signals: the lines of a response that carry them (SCRATCHPAD: and its
// block, CHECKLIST_*, MEMORY:, EVENT:, ACKNOWLEDGE_FAILURES) are left out of the shown text, since
// the events they cause ("scratchpad updated", "checklist 2 done", the hat change) say it already.

const SIGNAL = /^\s*(?:[-*>]\s*)?(SCRATCHPAD:|CHECKLIST_[A-Z]+:|MEMORY:|EVENT:|ACKNOWLEDGE_FAILURES\b)/;

export function withoutSignals(text: string): string {
  if (!text.includes("SCRATCHPAD:") && !/CHECKLIST_|MEMORY:|EVENT:|ACKNOWLEDGE_FAILURES/.test(text)) return text;
  const kept: string[] = [];
  let inScratchpad = false;
  for (const line of text.split("\n")) {
    const signal = SIGNAL.exec(line);
    if (signal) {
      inScratchpad = signal[1] === "SCRATCHPAD:";
      continue;
    }
    if (!inScratchpad) kept.push(line);
  }
  return kept.join("\n").trim();
}
