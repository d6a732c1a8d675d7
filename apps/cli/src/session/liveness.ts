import { hostname } from "node:os";
import type { SessionRecord, Store } from "@hatloop/core";

// Whether a session's run is really still going. The running process refreshes the heartbeat every
// HEARTBEAT_MS whatever the loop is doing (a long model call or test run included), so a "running"
// session whose heartbeat is older than STALE_MS was killed — on this machine or another one. On
// this machine a dead pid says so at once (after kill -9 the heartbeat is still fresh).

export const HEARTBEAT_MS = 15_000;
export const STALE_MS = 60_000;

export function isLive(session: SessionRecord, now = Date.now()): boolean {
  if (session.status !== "running" || session.heartbeatAt === null || now - session.heartbeatAt.getTime() >= STALE_MS) return false;
  return session.host !== hostname() || session.pid === null || pidAlive(session.pid);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/** The status to show: a "running" session that stopped beating was interrupted. */
export function displayStatus(session: SessionRecord, now = Date.now()): string {
  return session.status === "running" && !isLive(session, now) ? "interrupted" : session.status;
}

/** Keeps the heartbeat fresh while a run is in this process; returns the stopper. */
export function startHeartbeat(store: Store, sessionId: string): () => void {
  const timer = setInterval(() => void store.sessions.update(sessionId, { heartbeatAt: new Date() }).catch(() => {}), HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}
