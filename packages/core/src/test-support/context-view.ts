import type { Compaction, ContextHook, ContextView, Measurement } from "../state/context-hook.js";
import { initialGuard } from "../state/guard.js";
import type { LiveEntry } from "../state/live-entry.js";

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
    guard: initialGuard(),
  };
}

/** A context manager as the loop drives it: the guard's state threaded from each call to the next. */
export function guarded<M extends ContextHook>(
  manager: M,
): Omit<M, "measure" | "beforeCall"> & {
  measure(view: ContextView): Measurement;
  beforeCall(view: ContextView, signal: AbortSignal): Promise<Compaction | null>;
} {
  let guard = initialGuard();
  return {
    ...manager,
    measure(view: ContextView): Measurement {
      const measured = manager.measure({ ...view, guard });
      guard = measured.guard;
      return measured.measurement;
    },
    async beforeCall(view: ContextView, signal: AbortSignal): Promise<Compaction | null> {
      const called = await manager.beforeCall({ ...view, guard }, signal);
      guard = called.guard;
      return called.compaction;
    },
  };
}
