import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { workerStore, type DbStore, type WorkerRow } from "@hatloop/db";

// A worker's row in the workers table (hatloop workers, the web console): written at its start,
// beaten while it runs (with how many sessions it runs and whether it drains), marked stopped when it
// exits. A worker killed at once cannot mark itself: readers see it lost once its heartbeat is older
// than LOST_AFTER_MS.

/** How often a worker writes its heartbeat (and at once when what it runs changes). */
const WORKER_BEAT_MS = 5_000;
/** Three heartbeats missed: the worker is lost (killed, its machine gone, its database cut off). */
const LOST_AFTER_MS = 3 * WORKER_BEAT_MS;
/** Stopped and lost workers stay listed this long. */
const KEEP_GONE_MS = 24 * 3_600_000;

export class WorkerPresence {
  readonly id = randomUUID();
  private readonly workers;
  private timer: NodeJS.Timeout | undefined;
  private state: "running" | "draining" = "running";

  constructor(
    store: DbStore,
    private readonly name: string,
    private readonly concurrency: number,
    private readonly running: () => number,
  ) {
    this.workers = workerStore(store.database.db);
  }

  async start(): Promise<void> {
    await this.workers.register({ id: this.id, name: this.name, host: hostname(), pid: process.pid, concurrency: this.concurrency });
    this.timer = setInterval(() => void this.beat(), WORKER_BEAT_MS);
    this.timer.unref();
  }

  /** Writes the heartbeat now; a failure (a database blip) waits for the next one. */
  async beat(): Promise<void> {
    await this.workers.heartbeat(this.id, this.running(), this.state).catch(() => {});
  }

  async draining(): Promise<void> {
    this.state = "draining";
    await this.beat();
  }

  async tookOver(): Promise<void> {
    await this.workers.tookOver(this.id).catch(() => {});
  }

  async stopped(): Promise<void> {
    clearInterval(this.timer);
    await this.workers.stopped(this.id).catch(() => {});
  }
}

/** The fleet's workers, newest first: those running, draining or lost, and those stopped in the last day. */
export function listWorkers(store: DbStore): Promise<WorkerRow[]> {
  return workerStore(store.database.db).list({ lostAfterMs: LOST_AFTER_MS, keepStoppedMs: KEEP_GONE_MS });
}
