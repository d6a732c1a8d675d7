import { hostname } from "node:os";
import { eventReader, type SessionRecord, type Store } from "@hatloop/core";
import { usageError } from "../errors.js";
import { shortId } from "../format.js";
import { invocation } from "../invocation.js";

// One runner per session, by lease (see SessionStore.acquireLease): a run takes the session's lease,
// renews it every quarter of its time to live whatever the loop is doing, and writes only while it
// holds it (fencing). A lease that is not renewed expires, so a session whose runner was killed,
// hung or cut off becomes resumable elsewhere after the TTL; on this machine a dead pid frees it at
// once. "Running" means: a lease that has not expired, held by a process that is not known dead.

export interface Lease {
  epoch: number;
  /** Stops renewing and gives the lease up (if still held). */
  release(): Promise<void>;
}

/** Who holds a lease: enough to tell, on this machine, whether the holder is alive. */
function holderName(pid = process.pid): string {
  return `${hostname()}:${pid}`;
}

export function isLive(session: SessionRecord, now = Date.now()): boolean {
  const { holder, expiresAt } = session.lease;
  if ((session.status !== "running" && session.status !== "waiting") || holder === null || expiresAt === null || expiresAt.getTime() <= now)
    return false;
  return !holderKnownDead(holder);
}

/**
 * The status to show: a "running" session whose runner is gone was interrupted, and so was a
 * "pending" one whose start was killed (its process on this machine is gone).
 */
export function displayStatus(session: SessionRecord, now = Date.now()): string {
  if (session.status === "running" && !isLive(session, now)) return "interrupted";
  const starter = session.pid !== null && session.host !== null ? `${session.host}:${session.pid}` : null;
  if (session.status === "pending" && starter !== null && holderKnownDead(starter)) return "interrupted";
  return session.status;
}

/**
 * Takes the session's lease for this process, or says who has it. `onLost` is called when a renewal
 * finds the lease taken by another runner (this process must stop; its writes are refused anyway).
 */
export async function takeLease(store: Store, session: SessionRecord, ttlMs: number, onLost: () => void): Promise<Lease> {
  const me = holderName();
  const stale = session.lease.holder !== null && holderKnownDead(session.lease.holder) ? session.lease.holder : undefined;
  const epoch = await store.sessions.acquireLease(session.id, me, ttlMs, stale ? { takeOverFrom: stale } : {});
  if (epoch === null) {
    const current = (await store.sessions.get(session.id))?.lease;
    const until = current?.expiresAt ? ` until ${current.expiresAt.toISOString()} unless renewed` : "";
    throw usageError(
      `session ${shortId(session.id)} is running elsewhere (held by ${current?.holder ?? "another runner"}${until}); follow it with: ${invocation()} watch ${shortId(session.id)}`,
    );
  }
  const timer = setInterval(
    () => {
      store.sessions.renewLease(session.id, epoch, ttlMs).then(
        (held) => {
          if (!held) {
            clearInterval(timer);
            onLost();
          }
        },
        () => {}, // a database blip: the next renewal tries again, and the lease outlives a few misses
      );
    },
    Math.max(1_000, Math.floor(ttlMs / 4)),
  );
  timer.unref();
  return {
    epoch,
    async release() {
      clearInterval(timer);
      await store.sessions.releaseLease(session.id, epoch).catch(() => {});
    },
  };
}

/** A holder on this machine whose process is gone. Holders elsewhere are judged by expiry alone. */
function holderKnownDead(holder: string): boolean {
  const at = holder.lastIndexOf(":");
  const host = holder.slice(0, at);
  const pid = Number(holder.slice(at + 1));
  return host === hostname() && Number.isInteger(pid) && pid > 0 && !processAlive(pid);
}

/** Whether a process of this machine exists (one of another user's answers EPERM: it exists). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/**
 * The status as the run's own view shows it: a live run held by the user (p in the TUI) says
 * "paused", as the TUI does, although its row stays "running" until the run ends.
 */
export async function currentStatus(store: Store, session: SessionRecord, now = Date.now()): Promise<string> {
  return (await currentStatuses(store, [session], now)).get(session.id)!;
}

/** currentStatus of many sessions: one query for the live ones' newest session.status events. */
export async function currentStatuses(store: Store, sessions: readonly SessionRecord[], now = Date.now()): Promise<Map<string, string>> {
  const shown = new Map(sessions.map((s) => [s.id, displayStatus(s, now)]));
  const running = sessions.filter((s) => shown.get(s.id) === "running").map((s) => s.id);
  if (running.length > 0) {
    // Checked like every stored event; an unreadable one is passed over (the status shown is a hint).
    for (const event of eventReader(() => {}).read(await store.events.latest(running, ["session.status"])))
      if (event.type === "session.status" && event.data.status === "paused") shown.set(event.sessionId, "paused");
  }
  return shown;
}
