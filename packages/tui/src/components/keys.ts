// The key map, shown in the footer and the help overlay; one list so they never disagree.

export interface KeyHelp {
  keys: string;
  does: string;
  /** Where it works: only where the loop runs in this process, only when watching, or both. */
  only?: "run" | "watch";
}

// First the keys a run needs most: the help shows what fits (a line says how many more there are).
export const KEYS: KeyHelp[] = [
  { keys: "p", does: "pause / continue (between iterations)", only: "run" },
  { keys: "s", does: "stop: finish the iteration, checkpoint, end the run (resumable; exit 130)", only: "run" },
  { keys: ":", does: "steer: a message for the next iteration (Esc discards)", only: "run" },
  { keys: "a", does: "answer the agent's question (when it asks one; Esc discards)", only: "run" },
  { keys: "q", does: "quit: asks, then the loop pauses with a checkpoint", only: "run" },
  { keys: "Ctrl-C", does: "interrupt: checkpoint, then pause (twice: exit at once)", only: "run" },
  { keys: "q Ctrl-C", does: "detach (the loop goes on where it runs)", only: "watch" },
  { keys: "?", does: "this help" },
  { keys: "↑ ↓ PgUp PgDn j k ^U ^D", does: "scroll the focused pane (Ctrl-U / Ctrl-D: half a page)" },
  { keys: "Home End g G", does: "oldest / newest (End follows the stream again)" },
  { keys: "Enter", does: "open the marked entry (the bottom one) whole; Esc or q returns" },
  { keys: "/ n N", does: "search the activity; next older / next newer match (Esc clears)" },
  { keys: "[ ] { }", does: "previous / next iteration; previous / next hat" },
  { keys: "e", does: "the newest error, then older ones" },
  { keys: "z Z", does: "fold / unfold the marked entry's iteration; all of them" },
  { keys: "f", does: "files changed, by checkpoint, with their diffs (o pager, e editor)" },
  { keys: "$", does: "costs: burn rate, projection, tokens by kind (+ raises the budget)" },
  { keys: "y o", does: "copy the marked entry (OSC 52); show it in $PAGER" },
  { keys: "Tab", does: "switch focus: activity, checklist, scratchpad" },
  { keys: "mouse", does: "wheel scrolls; a click selects an activity entry (Shift to select text)" },
  { keys: "Ctrl-Z", does: "suspend to the shell (fg comes back)" },
];

/** What the view is doing now: which keys work depends on it. */
export interface KeyState {
  controls: boolean;
  /** The loop is live (running or paused), so p, s and : do something. */
  live: boolean;
  paused: boolean;
  /** The agent asked a question and the run waits for the answer. */
  waiting: boolean;
  scrolled: boolean;
  overlay: "help" | "steer" | "answer" | "quit" | "search" | "detail" | "files" | "cost" | "budget" | null;
  /** A search is on: which match is selected (1-based) of how many. */
  search: { index: number; count: number } | null;
}

/** The footer: only keys that work now, shortened to fit. */
export function footerText(k: KeyState, width: number): string {
  let parts: string[];
  if (k.overlay === "help") parts = ["any key closes the help"];
  else if (k.overlay === "steer" || k.overlay === "answer")
    parts = ["Enter send", "Esc discard", "←→ Home End move", "Ctrl-U clear", "Ctrl-C interrupt"];
  else if (k.overlay === "quit") parts = ["y quit", "n stay", "Ctrl-C interrupt"];
  else if (k.overlay === "search") parts = ["Enter find", "Esc cancel", "←→ Home End move", "Ctrl-U clear"];
  else if (k.overlay === "files") parts = ["←→ checkpoint", "↑↓ file", "PgUp PgDn ^U ^D diff", "o pager", "e editor", "y copy", "Esc back"];
  else if (k.overlay === "detail") parts = ["↑↓ PgUp PgDn scroll", "Home End top / bottom", "y copy", "o pager", "Esc back"];
  else if (k.overlay === "cost") parts = ["+ raise the cost budget", "any other key back"];
  else if (k.overlay === "budget") parts = ["Enter raise", "Esc back", "←→ Home End move", "Ctrl-U clear"];
  else {
    const loop = k.controls && k.live ? [...(k.waiting ? ["a answer"] : []), k.paused ? "p continue" : "p pause", "s stop", ": steer"] : [];
    const found = k.search ? [k.search.count ? `match ${k.search.index}/${k.search.count}` : "no match", "n N next", "Esc clear"] : [];
    parts = [
      ...found,
      ...loop,
      "Enter open",
      "/ search",
      "↑↓ scroll",
      ...(k.scrolled ? ["End follow"] : []),
      "[ ] iteration",
      "f files",
      "Tab focus",
      "$ cost",
      "? help",
      k.controls ? "q quit" : "q detach",
    ];
  }
  const essential = new Set([
    "? help",
    "a answer",
    "q quit",
    "q detach",
    "p pause",
    "p continue",
    "s stop",
    ": steer",
    "Enter send",
    "Esc discard",
    "y quit",
    "n stay",
    "any key closes the help",
    "End follow",
    "Enter open",
    "/ search",
    "Enter find",
    "Esc cancel",
    "Esc back",
    "←→ checkpoint",
    "no match",
    "n N next",
    "Esc clear",
  ]);
  const text = parts.join("  ");
  if (text.length <= width) return text;
  const kept = parts.filter((p) => essential.has(p) || p.startsWith("match "));
  // Cut at the edge when still too wide: `? help` goes first, so the way to every key stays on screen.
  return [...kept.filter((p) => p === "? help"), ...kept.filter((p) => p !== "? help")].join("  ");
}
