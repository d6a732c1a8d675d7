import { setTimeout as sleep } from "node:timers/promises";
import { DatabaseError } from "../location.js";
import type { ConnectionFailure } from "./classify.js";

// One outage at a time per database: every query that meets a connection failure waits here with
// backoff, the user is told once when it starts and once when it ends, and past the bound
// (database.outageTimeout) every query of the process fails at once with DatabaseUnavailableError:
// the process is stopping, and saying so beats a database that answers again half-way through.

export type OutageReport =
  { state: "unreachable"; location: string; cause: string; retryForMs: number } | { state: "reachable"; location: string; downMs: number };

/** The database stayed unreachable longer than allowed (or was unreachable at start). */
export class DatabaseUnavailableError extends DatabaseError {}

export interface OutagePolicy {
  /** How long an outage is waited out before giving up. */
  outageTimeoutMs: number;
  onOutage?: (report: OutageReport) => void;
  /** For tests. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** Longest pause between two attempts: a database that is back is used again within this. */
const MAX_DELAY_MS = 2_000;

export class OutageMonitor {
  private since: number | null = null;
  private gaveUp: string | null = null;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    /** host:port, or the embedded database's directory. */
    readonly location: string,
    private readonly policy: OutagePolicy,
  ) {
    this.now = policy.now ?? Date.now;
    this.sleep = policy.sleep ?? ((ms) => sleep(ms));
  }

  /** Before every attempt: throws once the database was given up on. */
  assertUsable(): void {
    if (this.gaveUp) throw new DatabaseUnavailableError(this.gaveUp);
  }

  /** After a connection failure (the `attempt`th of one query): pauses, or throws past the bound. */
  async waitToRetry(failure: ConnectionFailure, attempt: number): Promise<void> {
    this.assertUsable();
    const { cause } = failure;
    const { outageTimeoutMs } = this.policy;
    const now = this.now();
    if (this.since === null) {
      // A timeout is noticed late: the outage began when the server stopped answering.
      this.since = now - (failure.beganMsAgo ?? 0);
      this.report({ state: "unreachable", location: this.location, cause, retryForMs: outageTimeoutMs });
    }
    const downMs = now - this.since;
    if (downMs >= outageTimeoutMs) {
      // No report: the error itself is the last word.
      this.gaveUp = `database unreachable at ${this.location} (${cause}) for ${formatDuration(downMs)}; gave up (database.outageTimeout is ${formatDuration(outageTimeoutMs)})`;
      throw new DatabaseUnavailableError(this.gaveUp);
    }
    const backoff = Math.min(250 * 2 ** Math.min(attempt - 1, 4), MAX_DELAY_MS);
    // Jitter, so the queries of several processes do not all knock at the same instant.
    await this.sleep(Math.min(backoff * (0.75 + Math.random() / 2), outageTimeoutMs - downMs));
  }

  /** After any answer from the database: ends the outage, if one is running. */
  reachable(): void {
    if (this.since === null) return;
    const downMs = this.now() - this.since;
    this.since = null;
    this.report({ state: "reachable", location: this.location, downMs });
  }

  private report(report: OutageReport): void {
    try {
      this.policy.onOutage?.(report);
    } catch {
      // Telling the user must never be what breaks a query.
    }
  }
}

/** One line for the user about an outage report. */
export function describeOutage(report: OutageReport): string {
  if (report.state === "unreachable")
    return `database unreachable at ${report.location} (${report.cause}), retrying for up to ${formatDuration(report.retryForMs)}`;
  return `database reachable again at ${report.location} after ${formatDuration(report.downMs)}`;
}

/** 800 -> "0.8s", 42_000 -> "42s", 300_000 -> "5m", 90_000 -> "1m30s". */
function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1).replace(/\.0$/, "")}s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const rest = s % 60;
  return rest ? `${Math.floor(s / 60)}m${rest}s` : `${s / 60}m`;
}
