import { existsSync } from "node:fs";
import { describeEvent, redactValue, type EventData, type EventSink, type HatloopConfig, type LoopEvent } from "@hatloop/core";
import { deliver, targetLabel } from "./deliver.js";
import { hookFor, type HookName } from "./hook-events.js";

// Lifecycle hooks as an event sink: an event that fires a hook starts its delivery and returns at
// once, so the loop never waits for a hook. Deliveries of one hook run in order, one at a time; a
// hook that cannot keep up drops events past a bound instead of piling them up. At the end of a run
// settle() waits for what is under way (bounded), so that onComplete is sent before the process exits.

/** Events waiting behind a busy hook before further ones are dropped. */
const MAX_QUEUED = 20;

export interface HookSink {
  sink: EventSink;
  /** Waits for the deliveries under way, at most as long as one delivery may take; reports what is abandoned. */
  settle(): Promise<void>;
}

export function createHookSink(
  hooks: HatloopConfig["hooks"],
  options: { cwd: string; report(failure: EventData<"hook.failed">): void; backoffMs?: number },
): HookSink {
  const queues = new Map<HookName, { tail: Promise<void>; queued: number; dropped: number }>();
  let status: string | null = null;
  // Aborted when the run's wait for its hooks runs out: what is under way ends, so the process can exit.
  const abandon = new AbortController();
  const cwd = existsSync(options.cwd) ? options.cwd : process.cwd();

  const enqueue = (hook: HookName, targets: string[], event: LoopEvent) => {
    const queue = queues.get(hook) ?? { tail: Promise.resolve(), queued: 0, dropped: 0 };
    queues.set(hook, queue);
    if (queue.queued >= MAX_QUEUED) {
      if (queue.dropped++ === 0)
        options.report({
          hook,
          target: targetLabel(targets[0]!),
          attempts: 0,
          error: `too slow: ${MAX_QUEUED} events waiting, later ones dropped`,
        });
      return;
    }
    queue.queued++;
    // The line is worded from the redacted event too: the raw one would carry a secret of the agent's question or an error.
    const redacted = redactValue(event) as LoopEvent;
    const payload = JSON.stringify({ ...redacted, hook, text: describeEvent(redacted) });
    queue.tail = queue.tail.then(async () => {
      for (const target of targets) {
        const result = await deliver({
          target,
          hook,
          eventType: event.type,
          sessionId: event.sessionId,
          payload,
          timeoutMs: hooks.timeout,
          retries: hooks.retries,
          cwd,
          signal: abandon.signal,
          ...(options.backoffMs === undefined ? {} : { backoffMs: options.backoffMs }),
        });
        if (abandon.signal.aborted) break;
        if (!result.ok) options.report({ hook, target: targetLabel(target), attempts: result.attempts, error: result.error });
      }
      queue.queued--;
      if (queue.queued === 0) queue.dropped = 0;
    });
  };

  return {
    sink(event) {
      const hook = hookFor(event, status);
      if (event.type === "session.status") status = event.data.status;
      const targets = hook ? hooks[hook] : undefined;
      if (hook && targets) enqueue(hook, targets, event);
    },
    async settle() {
      const pending = [...queues.values()].filter((q) => q.queued > 0);
      if (!pending.length) return;
      const limit = (hooks.retries + 1) * hooks.timeout + Math.min(30_000, (options.backoffMs ?? 1_000) * 2 ** hooks.retries) + 2_000;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), limit)));
      const done = await Promise.race([Promise.all(pending.map((q) => q.tail)).then(() => "done" as const), late]);
      clearTimeout(timer);
      if (done === "late") {
        for (const [hook, queue] of queues)
          if (queue.queued > 0)
            options.report({ hook, target: "-", attempts: 0, error: `${queue.queued} still under way when the run ended; abandoned` });
        abandon.abort();
      }
    },
  };
}
