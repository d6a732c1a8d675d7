import type { LoopEvent, SessionRecord, Store } from "@hatloop/core";
import { displayStatus, isLive } from "../session/liveness.js";

// What a watcher cannot learn from events alone. A run killed with kill -9 (or quit with a second
// Ctrl-C) never writes its end, so its events just stop; its lease says it is gone. And the clock a
// watcher shows must be the run's own, not one started when the watcher attached.

/** How often a watcher rechecks that the run it follows is still alive. */
const LIVENESS_CHECK_MS = 2_000;

/**
 * Calls `onGone` once the session is shown as `interrupted` (what `hatloop ls` says: a running row whose
 * runner is gone), then stops checking; also stops when `signal` aborts. A failed read is tried again.
 */
export function whenRunGone(store: Store, sessionId: string, signal: AbortSignal, onGone: () => void): void {
  checkRow(store, sessionId, signal, (row) => {
    if (!row || displayStatus(row) !== "interrupted") return false;
    onGone();
    return true;
  });
}

/**
 * Calls `onStopped` once the session's run is no longer live (ended, paused, waiting without its
 * runner, removed, or gone: then `interrupted` is true), then stops checking; also stops when
 * `signal` aborts. The run's last events may have been stored since the caller last read them.
 */
export function whenNotLive(store: Store, sessionId: string, signal: AbortSignal, onStopped: (interrupted: boolean) => void): void {
  checkRow(store, sessionId, signal, (row) => {
    if (row && isLive(row)) return false;
    onStopped(row !== null && displayStatus(row) === "interrupted");
    return true;
  });
}

/** Reads the row every LIVENESS_CHECK_MS until `done` says so or `signal` aborts. */
function checkRow(store: Store, sessionId: string, signal: AbortSignal, done: (row: SessionRecord | null) => boolean): void {
  const timer = setInterval(() => {
    store.sessions.get(sessionId).then(
      (row) => {
        if (signal.aborted || !done(row)) return;
        clearInterval(timer);
      },
      () => {}, // a database blip: the next check reads again
    );
  }, LIVENESS_CHECK_MS);
  signal.addEventListener("abort", () => clearInterval(timer), { once: true });
}

/**
 * The running clock's base from the stored row: the row's runtime was written when the run's last
 * iteration ended (or, before one has, is what earlier runs took), so the run's clock reads that
 * runtime plus the time since that event. Null when the replayed events hold neither moment.
 */
export function runClock(session: SessionRecord, events: readonly LoopEvent[]): { runtimeMs: number; runningSince: number } | null {
  let anchor: number | null = null;
  for (const event of events) {
    if (event.type === "session.start" || event.type === "iteration.end") anchor = event.ts;
  }
  return anchor === null ? null : { runtimeMs: session.runtimeMs, runningSince: anchor };
}
