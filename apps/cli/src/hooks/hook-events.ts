import type { LoopEvent } from "@hatloop/core";

// Which lifecycle hook an event fires. A status fires its hook when the session enters it: a run
// that ends paused (or waiting for an answer) reports that status again, and then session.end with
// it, and the hook has already fired.

export type HookName = "onComplete" | "onFail" | "onPause" | "onWaiting" | "onIteration";

const ON_STATUS: Partial<Record<string, HookName>> = { paused: "onPause", waiting: "onWaiting" };

/** `status`: the session's status as the last session.status event before this one said it (null: none yet). */
export function hookFor(event: LoopEvent, status: string | null): HookName | null {
  switch (event.type) {
    case "iteration.end":
      return "onIteration";
    case "session.status":
      return event.data.status === status ? null : (ON_STATUS[event.data.status] ?? null);
    case "session.end": {
      const ended = event.data.status;
      if (ended === "completed") return "onComplete";
      if (ended === "failed" || ended === "stopped") return "onFail";
      return ended === status ? null : (ON_STATUS[ended] ?? null);
    }
    default:
      return null;
  }
}
