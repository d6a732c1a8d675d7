import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type { Job, PgBoss } from "pg-boss";
import { errorMessage } from "@hatloop/context";
import { LoopControl, type HatloopConfig, type LoopOutcome, type SessionRecord } from "@hatloop/core";
import { fleetStore, setRetryDelay, takeRepoSlot, type DbStore, type FleetRow } from "@hatloop/db";
import { CliError } from "../errors.js";
import { shortId } from "../format.js";
import { printText } from "../output/print.js";
import { remoteCommit } from "@hatloop/tools";
import { gitPort } from "../session/deps.js";
import { runLeasedSession } from "../session/drive.js";
import { baselineFor, gateCommands } from "../session/gates.js";
import { takeLease, type Lease } from "../session/liveness.js";
import { chooseModel } from "../session/model.js";
import { watchStopRequests } from "../session/stop-requests.js";
import { lostWorkNote } from "./lost-work.js";
import { takeNameLock } from "./name-lock.js";
import { sessionConfig } from "./session-config.js";
import { WorkerPresence } from "./presence.js";
import { fire } from "./firing.js";
import { QUEUE, SCHEDULE_QUEUE, type JobData } from "./queue.js";
import type { ScheduleData } from "./schedules.js";
import { clearLeftWorktrees, prepareWorkspace, pushingGitPort, removeWorkspace, workerDir, type PreparedWorkspace } from "./workspace.js";

// `hatloop worker`: takes sessions from the queue and runs each with the same loop as `hatloop run`.
// A session is taken in three steps: the job (pg-boss, heartbeated while it runs), the session's lease
// (the fencing token every write carries) and the repository (fetched, worktree at the checkpoint's
// commit). SIGTERM drains: running sessions are interrupted (checkpoint, pause) and their jobs fail
// back to the queue, where any worker resumes them. A second SIGTERM, or SIGINT, does the same at once.

/** Thrown by a job handler to put its session back in the queue (pg-boss retries a failed job). */
class BackToQueue extends Error {}

/** A session that could not start: its repository could not be cloned or fetched, its base not found. */
class StartFailed extends Error {}

interface Running {
  session: SessionRecord;
  job: Job<JobData>;
  control: LoopControl;
  lease?: Lease;
  workspace?: PreparedWorkspace;
  drained: boolean;
  stopped: boolean;
}

export interface WorkerOptions {
  store: DbStore;
  boss: PgBoss;
  config: HatloopConfig;
  name: string;
  concurrency: number;
  json: boolean;
}

export class Worker {
  private readonly running = new Map<string, Running>();
  private readonly fleet;
  private draining = false;
  private idle: Array<() => void> = [];
  private readonly presence: WorkerPresence;

  constructor(private readonly options: WorkerOptions) {
    this.fleet = fleetStore(options.store.database.db);
    this.presence = new WorkerPresence(options.store, options.name, options.concurrency, () => this.running.size);
  }

  /** Works until drained; resolves with the exit code. */
  async run(): Promise<number> {
    const { boss, config, concurrency } = this.options;
    const lock = takeNameLock(workerDir(this.options.name));
    clearLeftWorktrees(workerDir(this.options.name));
    await this.presence.start();
    const stops = watchStopRequests(
      this.options.store,
      () => [...this.running.keys()],
      (id) => this.stopSession(id),
      Math.min(1_000, config.fleet.poll),
    );
    const done = new Promise<number>((resolve) => this.onSignals(resolve));
    const poll = Math.max(0.5, config.fleet.poll / 1_000);
    await boss.work<JobData>(
      QUEUE,
      {
        localConcurrency: concurrency,
        batchSize: 1,
        pollingIntervalSeconds: poll,
        ...(config.fleet.maxPerRepo ? { groupConcurrency: config.fleet.maxPerRepo } : {}),
      },
      async ([job]) => this.handle(job!),
    );
    await boss.work<ScheduleData>(SCHEDULE_QUEUE, { localConcurrency: 1, batchSize: 1, pollingIntervalSeconds: poll }, async ([job]) => {
      const fired = await fire(this.options.store, boss, config, job!);
      if (fired.created) this.say("schedule fired", { schedule: job!.data.schedule, session: fired.sessionId });
    });
    this.say("ready", { concurrency, maxPerRepo: config.fleet.maxPerRepo ?? null });
    try {
      return await done;
    } finally {
      stops.stop();
      await this.presence.stopped();
      lock.release();
    }
  }

  private onSignals(resolve: (code: number) => void): void {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      signals++;
      if (signals === 1 && signal === "SIGTERM") {
        this.say("draining", { running: this.running.size });
        void this.drain().then(() => resolve(0));
        return;
      }
      this.say("stopping at once", { running: this.running.size });
      void this.stopNow().then(() => resolve(130));
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  }

  /** No new jobs; running sessions checkpoint and pause, and go back to the queue. */
  private async drain(): Promise<void> {
    this.draining = true;
    await this.presence.draining();
    // Not waiting for the running jobs (offWork's default): they end only once interrupted, below.
    await this.options.boss.offWork(QUEUE, { wait: false }).catch(() => {});
    await this.options.boss.offWork(SCHEDULE_QUEUE, { wait: true }).catch(() => {});
    for (const run of this.running.values()) {
      run.drained = true;
      run.control.interrupt();
    }
    if (this.running.size) await new Promise<void>((r) => this.idle.push(r));
    await this.options.boss.stop({ graceful: true, close: true, timeout: 30_000 }).catch(() => {});
  }

  /** Jobs failed back to the queue and leases given up now, without waiting for the loops. */
  private async stopNow(): Promise<void> {
    this.draining = true;
    await Promise.all(
      [...this.running.values()].map(async (run) => {
        run.control.interrupt();
        await this.options.boss
          .fail(QUEUE, { id: run.job.id, retryCount: run.job.retryCount }, { message: "worker stopped" })
          .catch(() => {});
        await run.lease?.release();
      }),
    );
    await this.options.boss.stop({ graceful: false, close: true, timeout: 5_000 }).catch(() => {});
  }

  private stopSession(id: string): void {
    const run = this.running.get(id);
    if (!run) return;
    run.stopped = true;
    this.say("stop requested", { session: id });
    run.control.requestStop();
  }

  private async handle(job: Job<JobData>): Promise<{ status: string }> {
    const { store } = this.options;
    const found = await store.sessions.get(job.data.sessionId);
    if (!found) return { status: "gone" };
    if (found.status === "completed" || found.status === "failed") return { status: found.status };
    if (this.draining) throw new BackToQueue("worker is draining");
    const fleetRow = await this.fleet.get(found.id);
    if (fleetRow?.stopRequestedAt) {
      await store.sessions.update(found.id, { status: "paused", stopReason: "stopped (hatloop stop)" });
      await this.fleet.clearStop(found.id);
      return { status: "stopped" };
    }
    if (!fleetRow?.repoUrl) throw new CliError(`session ${shortId(found.id)} has no repository to travel with`);
    const run: Running = { session: found, job, control: new LoopControl(), drained: false, stopped: false };
    this.running.set(found.id, run);
    void this.presence.beat();
    // Its job came back to the queue (a drain, a crash, a lost lease) after a runner had started it:
    // this worker takes it over. A job retried after a failed start is not a takeover.
    const takeover = job.retryCount > 0 && fleetRow.worker !== null && fleetRow.startAttempts === 0;
    job.signal.addEventListener("abort", () => run.control.interrupt());
    const started = Date.now();
    let slot: { release(): Promise<void> } | null = null;
    try {
      slot = await this.repoSlot(run, fleetRow.repoUrl);
      const outcome = await this.runSession(run, { ...fleetRow, repoUrl: fleetRow.repoUrl }, takeover);
      if (run.drained) throw new BackToQueue(`session ${shortId(found.id)} drained`);
      if (run.stopped) await this.fleet.clearStop(found.id);
      this.say("session ended", { session: found.id, status: outcome.status, reason: outcome.reason, ms: Date.now() - started });
      return { status: outcome.status };
    } catch (error) {
      if (error instanceof StartFailed) {
        await run.lease?.release();
        return await this.startFailed(job, found, error.message);
      }
      if (!(error instanceof BackToQueue)) this.say("session failed", { session: found.id, error: errorMessage(error) });
      else this.say("session back to the queue", { session: found.id });
      throw error;
    } finally {
      await run.lease?.release();
      await slot?.release();
      if (run.workspace)
        await removeWorkspace(run.workspace, found.branch).catch((error: Error) =>
          this.say("worktree not removed", { session: found.id, error: error.message }),
        );
      this.running.delete(found.id);
      void this.presence.beat();
      if (this.running.size === 0) this.idle.splice(0).forEach((r) => r());
    }
  }

  private async runSession(run: Running, fleetRow: FleetRow & { repoUrl: string }, takeover: boolean): Promise<LoopOutcome> {
    const { store, name } = this.options;
    const { repoUrl } = fleetRow;
    const config = sessionConfig(run.session, this.options.config);
    run.lease = await this.takeLeaseWaiting(run);
    const { epoch } = run.lease;
    if (takeover) await this.presence.tookOver();
    const fenced = store.fenced(run.session.id, epoch);
    if (!run.session.baseCommit) {
      // A schedule's firing: the base branch is read now, when the session starts.
      const baseCommit = await starting(() => remoteCommit(repoUrl, fleetRow.base ?? undefined));
      await fenced.sessions.update(run.session.id, { baseCommit });
      run.session = { ...run.session, baseCommit };
    }
    const workspace = (run.workspace = await starting(() =>
      prepareWorkspace({
        dir: workerDir(name),
        repoUrl,
        store,
        sessionId: run.session.id,
        branch: run.session.branch,
        baseCommit: run.session.baseCommit,
      }),
    ));
    if (fleetRow.startAttempts > 0 || fleetRow.startError) {
      // Started after failures: the next failure counts from one again, and a drain goes back at once.
      await this.fleet.startSucceeded(run.session.id);
      await setRetryDelay(store.database.db, { schema: "pgboss", name: QUEUE }, run.job.id, 0);
    }
    // repoPath stays the repository's URL: memories are keyed by it, the same on every worker.
    await fenced.sessions.update(run.session.id, { worktreePath: workspace.worktreePath, pid: process.pid, host: hostname() });
    await this.fleet.setWorker(run.session.id, name);
    let session = (await store.sessions.get(run.session.id))!;
    if (session.gateBaseline === null && session.status === "pending") {
      const commands = await gateCommands(workspace.worktreePath, config);
      if (Object.keys(commands).length) {
        const baseline = await baselineFor(workspace.worktreePath, commands, config, run.control.signal);
        await fenced.sessions.update(session.id, { gateBaseline: baseline });
        session = { ...session, gateBaseline: baseline };
      }
    }
    const resumeNote = await lostWorkNote(store, session.id, workspace.through);
    this.say("session started", {
      session: session.id,
      iteration: session.iteration,
      commit: workspace.commit,
      epoch,
      ...(takeover ? { takeover } : {}),
      ...(workspace.restored ? { snapshot: workspace.through } : {}),
      ...(resumeNote ? { unrestored: resumeNote } : {}),
    });
    const git = pushingGitPort(gitPort, {
      sessionId: session.id,
      branch: session.branch,
      workspace,
      stillHeld: () => store.sessions.renewLease(session.id, epoch, config.leaseTtl),
    });
    return runLeasedSession({
      session,
      store: fenced,
      config,
      model: chooseModel(session.model, config),
      control: run.control,
      // The worker's log says what became of a completion's pull request and of a failing hook.
      sinks: [
        (event) =>
          event.type === "pr.result" || event.type === "hook.failed"
            ? this.say(event.type, { session: session.id, ...event.data })
            : undefined,
      ],
      git,
      runner: `worker ${name} (${hostname()}:${process.pid})`,
      notice: (line) => this.say("notice", { session: session.id, line }),
      resumeNote,
    });
  }

  /**
   * A failed start: counted; tried again after fleet.startBackoff, doubled with each failure in a row
   * (pg-boss computes the retry's start from the job's retry_delay, set here just before the job is
   * failed), until fleet.startAttempts, when the session is dead-lettered: its job ends, it stays out
   * of the queue until `hatloop retry`.
   */
  private async startFailed(job: Job<JobData>, session: SessionRecord, error: string): Promise<{ status: string }> {
    const { store, config } = this.options;
    const { attempts, deadLettered } = await this.fleet.startFailed(session.id, error, config.fleet.startAttempts);
    if (deadLettered) {
      await store.sessions.update(session.id, {
        status: "paused",
        stopReason: `its starts failed ${attempts} times (hatloop retry queues it again)`,
        lastError: error,
      });
      this.say("session dead-lettered", { session: session.id, attempts, error });
      return { status: "dead-lettered" };
    }
    const delay = Math.min(MAX_START_BACKOFF_S, Math.round((config.fleet.startBackoff / 1_000) * 2 ** (attempts - 1)));
    await setRetryDelay(store.database.db, { schema: "pgboss", name: QUEUE }, job.id, delay);
    this.say("session start failed", { session: session.id, attempt: attempts, retryInSeconds: delay, error });
    throw new BackToQueue(`session ${shortId(session.id)} did not start: ${error}`);
  }

  /** With fleet.maxPerRepo: a slot of the session's repository, waiting while all are taken. */
  private async repoSlot(run: Running, repoUrl: string): Promise<{ release(): Promise<void> } | null> {
    const { config } = this.options;
    if (!config.fleet.maxPerRepo || !config.databaseUrl) return null;
    let waiting = false;
    for (;;) {
      const slot = await takeRepoSlot(config.databaseUrl, repoUrl, config.fleet.maxPerRepo);
      if (slot) return slot;
      if (run.control.interrupted) throw new BackToQueue(`session ${shortId(run.session.id)} drained while waiting for its repository`);
      if (!waiting) this.say("waiting for a repository slot", { session: run.session.id, maxPerRepo: config.fleet.maxPerRepo });
      waiting = true;
      await sleep(500);
    }
  }

  /** The lease: at once when free (or its holder is known dead), else once the holder's expires. */
  private async takeLeaseWaiting(run: Running): Promise<Lease> {
    const { store, config } = this.options;
    const deadline = Date.now() + config.leaseTtl + 15_000;
    let session = run.session;
    for (;;) {
      try {
        return await takeLease(store, session, config.leaseTtl, () => run.control.interrupt());
      } catch (error) {
        if (!(error instanceof CliError) || Date.now() > deadline || run.control.interrupted) throw error;
        await sleep(500);
        session = (await store.sessions.get(session.id)) ?? session;
      }
    }
  }

  private say(what: string, data: Record<string, unknown>): void {
    if (this.options.json)
      return printText(JSON.stringify({ worker: this.options.name, event: what, at: new Date().toISOString(), ...data }));
    const parts = Object.entries(data).map(([k, v]) => `${k}=${typeof v === "string" && k === "session" ? shortId(v) : JSON.stringify(v)}`);
    printText(`worker ${this.options.name}: ${what}${parts.length ? ` ${parts.join(" ")}` : ""}`);
  }
}

/** The longest wait between two starts of a session. */
const MAX_START_BACKOFF_S = 3_600;

/** A failure of `start` (clone, fetch, base branch) is a StartFailed: retried later, then dead-lettered. */
async function starting<T>(start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    throw new StartFailed(firstLine(errorMessage(error)));
  }
}

function firstLine(text: string): string {
  return text.split("\n")[0]!.trim();
}
