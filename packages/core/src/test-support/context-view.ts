import type { ContextView, LiveEntry } from "../loop/context-hook.js";

/** The context manager's view of a session with these live entries in a 10k window, nothing else set. */
export function contextView(live: LiveEntry[], iteration: number): ContextView {
  return {
    sessionId: "s",
    iteration,
    hat: "creator",
    model: "m",
    contextWindow: 10_000,
    live,
    system: [],
    tools: [],
    anchor: null,
    stubbed: new Set(),
    scratchpad: "",
    task: "the task",
    instructions: [],
    openItems: [],
    decisions: [],
    lastFailure: null,
  };
}
