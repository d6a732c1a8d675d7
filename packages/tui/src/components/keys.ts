// The key map, shown in the footer and the help overlay; one list so they never disagree.

export interface KeyHelp {
  keys: string;
  does: string;
  /** Only where the loop runs in this process (not when watching). */
  control?: boolean;
}

export const KEYS: KeyHelp[] = [
  { keys: "p", does: "pause / continue (between iterations)", control: true },
  { keys: "s", does: "stop: checkpoint, then end the run (resumable)", control: true },
  { keys: ":", does: "steer: type a message for the next iteration", control: true },
  { keys: "↑ ↓ PgUp PgDn", does: "scroll the focused pane" },
  { keys: "Home End", does: "oldest / newest (End follows the stream again)" },
  { keys: "[ ]", does: "previous / next iteration in the activity" },
  { keys: "Tab", does: "switch focus: activity, checklist, scratchpad" },
  { keys: "?", does: "this help" },
  { keys: "q", does: "quit (a running loop asks, then pauses with a checkpoint; watching just detaches)" },
];

export function footerText(controls: boolean, width: number): string {
  const short = controls ? "p pause  s stop  : steer  ↑↓ scroll  [ ] iteration  Tab focus  ? help  q quit" : "↑↓ scroll  [ ] iteration  Tab focus  ? help  q detach";
  return short.length <= width ? short : controls ? "p pause  s stop  : steer  ? help  q quit" : "? help  q detach";
}
