import type { LoopEvent } from "@hatloop/core";

// Which lifecycle hook an event fires. A run that ends paused reports session.status "paused" and
// then session.end "paused": one pause, so onPause fires once, on the first of the two.

export type HookName = "onComplete" | "onFail" | "onPause" | "onWaiting" | "onIteration";

export function hookFor(event: LoopEvent, previous: LoopEvent | null): HookName | null {
  switch (event.type) {
    case "iteration.end":
      return "onIteration";
    case "session.status": {
      // "waiting" (the agent asked the user) is compared as a string: the status list grows with ask_user.
      const status: string = event.data.status;
      return status === "waiting" ? "onWaiting" : status === "paused" ? "onPause" : null;
    }
    case "session.end":
      if (event.data.status === "completed") return "onComplete";
      if (event.data.status === "failed" || event.data.status === "stopped") return "onFail";
      return previous?.type === "session.status" && previous.data.status === "paused" ? null : "onPause";
    default:
      return null;
  }
}
