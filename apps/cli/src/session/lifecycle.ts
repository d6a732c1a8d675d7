import {
  Emitter,
  type EventData,
  type EventSink,
  type HatloopConfig,
  type LoopOutcome,
  type SessionRecord,
  type Store,
} from "@hatloop/core";
import { createHookSink } from "../hooks/hook-sink.js";
import { openPullRequest } from "../publish/pull-request.js";

// What happens beside a session's loop and after it, for `run`, `resume` and the fleet's workers
// alike: the lifecycle hooks (config `hooks`), and the pull request of a completed run (`--pr`).
// Their outcomes are events like the loop's, so they are printed, stored and shown the same way.

export interface SessionLifecycle {
  /** Add to the loop's sinks. */
  sink: EventSink;
  /** After the loop: the pull request of a completion. */
  afterRun(outcome: LoopOutcome): Promise<void>;
  /** Always, last: waits (bounded) for the hooks under way. */
  settle(): Promise<void>;
}

export function sessionLifecycle(options: {
  session: SessionRecord;
  store: Store;
  config: HatloopConfig;
  sinks: EventSink[];
}): SessionLifecycle {
  const { session, store, config } = options;
  let gates: EventData<"gate.result"> | null = null;
  // Its events belong to the iteration the loop's last event was in.
  const emitter = new Emitter(session.id, options.sinks, Date.now);
  emitter.iteration = session.iteration;
  const hooks = createHookSink(config.hooks, { cwd: session.worktreePath, report: (failure) => emitter.emit("hook.failed", failure) });
  return {
    sink(event) {
      emitter.iteration = event.iteration;
      if (event.type === "gate.result") gates = event.data;
      hooks.sink(event);
    },
    async afterRun(outcome) {
      if (outcome.status !== "completed" || !config.pr.enabled) return;
      const current = (await store.sessions.get(session.id)) ?? session;
      emitter.emit("pr.result", await openPullRequest({ session: current, store, pr: config.pr, gates }));
    },
    settle: () => hooks.settle(),
  };
}
