import { rmSync } from "node:fs";
import { defaultConfig } from "@hatloop/core";
import { createTestDatabase } from "@hatloop/db/testing";
import { median, round } from "../util/stats.js";
import { makeRig, startWorker, submitMany, waitAny, writeScenario, type FleetSettings, type Rig, type WorkerProcess } from "./processes.js";

// `pnpm bench fleet`: hatloop's fleet (pg-boss on Postgres) as real processes: the built `hatloop`
// binary's submit and worker, a bare repository on disk as the remote, zero-latency scripted models.
// For 1, 2 and 4 workers (concurrency 1 each), side by side:
// - throughput: sessions submitted up front, then the workers start; sessions per minute from the
//   first session taken to the last one ended (worker start-up is not counted);
// - takeover after SIGKILL: one worker runs a long session, the others are idle; the runner is
//   killed and the time to "session started" on another worker is taken from the workers' logs.
//   With one worker, a replacement is started the moment it is killed (a restart policy's case).
// Each run gets its own database (dropped afterwards) and remote. Medians of the runs.

export interface FleetPlan {
  workerCounts: number[];
  throughputRuns: number;
  sessionsPerRun: number;
  /** Turns of each throughput session (each writes a file, so each is an iteration with a tool call), then task_complete. */
  sessionSteps: number;
  takeoverRuns: number;
}

export function fleetPlan(quick: boolean): FleetPlan {
  return quick
    ? { workerCounts: [1, 2, 4], throughputRuns: 1, sessionsPerRun: 4, sessionSteps: 3, takeoverRuns: 1 }
    : { workerCounts: [1, 2, 4], throughputRuns: 3, sessionsPerRun: 12, sessionSteps: 3, takeoverRuns: 3 };
}

/** The product's defaults: the figures are what a user who sets nothing gets. */
const defaults = defaultConfig();
export const BENCH_SETTINGS: FleetSettings = {
  heartbeat: `${defaults.fleet.heartbeat}ms`,
  supervise: `${defaults.fleet.supervise}ms`,
  poll: `${defaults.fleet.poll}ms`,
  leaseTtl: `${defaults.leaseTtl}ms`,
};

interface ThroughputRun {
  sessions: number;
  /** First session taken to last session ended, ms. */
  windowMs: number;
  sessionsPerMin: number;
  /** Sessions each worker completed. */
  perWorker: number[];
}

export interface RawFleet {
  workers: number;
  throughput: ThroughputRun[];
  /** Kill to "session started" on another worker, ms, one per run. */
  takeoverMs: number[];
}

interface FleetRow {
  workers: number;
  throughput: { sessionsPerMinMedian: number; runs: ThroughputRun[] };
  takeover: { medianMs: number; runsMs: number[] };
}

export interface FleetJson {
  bench: "fleet";
  version: 1;
  plan: FleetPlan;
  settings: FleetSettings;
  rows: FleetRow[];
  run: { durationMs: number; node: string };
}

/** The results as written to fleet-latest.json: per worker count, the runs and their medians. */
export function summarizeFleet(plan: FleetPlan, settings: FleetSettings, raw: readonly RawFleet[], run: FleetJson["run"]): FleetJson {
  const rows = raw.map((r) => ({
    workers: r.workers,
    throughput: { sessionsPerMinMedian: round(median(r.throughput.map((t) => t.sessionsPerMin)), 1), runs: r.throughput },
    takeover: { medianMs: Math.round(median(r.takeoverMs)), runsMs: r.takeoverMs.map((ms) => Math.round(ms)) },
  }));
  return { bench: "fleet", version: 1, plan, settings, rows, run };
}

export function renderFleet(json: FleetJson): string {
  const { plan, settings, rows } = json;
  const head = [
    `| | ${rows.map((r) => `${r.workers} worker${r.workers === 1 ? "" : "s"}`).join(" | ")} |`,
    `|---|${rows.map(() => "---:").join("|")}|`,
  ];
  const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return [
    "## Fleet bench",
    `Real processes: \`hatloop submit\` and \`hatloop worker --concurrency 1\` on one Postgres, a bare repository on disk as the remote, scripted zero-latency models (${plan.sessionSteps} file-writing turns, then task_complete; every session clones/fetches, creates its worktree and pushes its branch at each checkpoint). Heartbeat ${settings.heartbeat}, supervision every ${settings.supervise}, poll ${settings.poll}, lease ${settings.leaseTtl}. Node ${json.run.node}.`,
    [
      ...head,
      `| throughput, sessions/min (median of ${plan.throughputRuns} run(s) × ${plan.sessionsPerRun} sessions) | ${rows.map((r) => r.throughput.sessionsPerMinMedian.toFixed(1)).join(" | ")} |`,
      `| throughput runs | ${rows.map((r) => r.throughput.runs.map((t) => t.sessionsPerMin.toFixed(1)).join(", ")).join(" | ")} |`,
      `| takeover after SIGKILL (median of ${plan.takeoverRuns} run(s)) | ${rows.map((r) => secs(r.takeover.medianMs)).join(" | ")} |`,
      `| takeover runs | ${rows.map((r) => r.takeover.runsMs.map(secs).join(", ")).join(" | ")} |`,
    ].join("\n"),
    "Throughput counts from the first session taken to the last one ended (worker start-up excluded). Takeover: SIGKILL of the worker running a session to that session started on another worker (with 1 worker: on a replacement started at the kill); it is the job heartbeat (counted from the last beat) plus up to a supervision interval plus a poll.",
  ].join("\n\n");
}

export async function fleetCommand(
  pg: string,
  quick: boolean,
  log: (line: string) => void,
): Promise<{ json: FleetJson; markdown: string }> {
  const started = Date.now();
  const plan = fleetPlan(quick);
  const raw: RawFleet[] = [];
  for (const workers of plan.workerCounts) {
    const throughput: ThroughputRun[] = [];
    for (let i = 0; i < plan.throughputRuns; i++) {
      throughput.push(await withRun(pg, (rig) => measureThroughput(rig, workers, plan)));
      log(`fleet: ${workers} worker(s): ${throughput.at(-1)!.sessionsPerMin.toFixed(1)} sessions/min`);
    }
    const takeoverMs: number[] = [];
    for (let i = 0; i < plan.takeoverRuns; i++) {
      takeoverMs.push(await withRun(pg, (rig) => measureTakeover(rig, workers)));
      log(`fleet: ${workers} worker(s): takeover ${(takeoverMs.at(-1)! / 1000).toFixed(1)} s`);
    }
    raw.push({ workers, throughput, takeoverMs });
  }
  const json = summarizeFleet(plan, BENCH_SETTINGS, raw, { durationMs: Date.now() - started, node: process.version });
  return { json, markdown: renderFleet(json) };
}

/** A database of its own on the server and a fresh remote; both removed afterwards. */
async function withRun<T>(pg: string, work: (rig: Rig) => Promise<T>): Promise<T> {
  process.env["HATLOOP_TEST_DATABASE_URL"] = pg;
  const database = await createTestDatabase();
  const rig = makeRig(database.url, BENCH_SETTINGS);
  try {
    return await work(rig);
  } finally {
    await database.drop();
    rmSync(rig.root, { recursive: true, force: true });
  }
}

async function stopAll(workers: readonly WorkerProcess[]): Promise<void> {
  for (const w of workers) w.kill("SIGKILL");
  await Promise.all(workers.map((w) => w.done));
}

async function measureThroughput(rig: Rig, count: number, plan: FleetPlan): Promise<ThroughputRun> {
  const scenario = writeScenario(rig, "zero", plan.sessionSteps, 0);
  const ids = await submitMany(rig, scenario, plan.sessionsPerRun);
  const workers = Array.from({ length: count }, (_, i) => startWorker(rig, `b${i + 1}`));
  try {
    const ended = new Map<string, { worker: string; at: number }>();
    while (ended.size < ids.length) {
      await waitAny(workers, (e) => e.event === "session ended" && !ended.has(e.session!));
      for (const w of workers)
        for (const e of w.events) {
          if (e.event === "session ended" && e.status === "completed" && e.session && !ended.has(e.session))
            ended.set(e.session, { worker: w.name, at: Date.parse(e.at) });
          if (e.event === "session ended" && e.status !== "completed")
            throw new Error(`session ${e.session} ended ${e.status}: ${String(e["reason"])}`);
        }
    }
    const starts = workers.flatMap((w) => w.events.filter((e) => e.event === "session started").map((e) => Date.parse(e.at)));
    const windowMs = Math.max(...[...ended.values()].map((e) => e.at)) - Math.min(...starts);
    return {
      sessions: ids.length,
      windowMs,
      sessionsPerMin: round(ids.length / (windowMs / 60_000), 2),
      perWorker: workers.map((w) => [...ended.values()].filter((e) => e.worker === w.name).length),
    };
  } finally {
    await stopAll(workers);
  }
}

async function measureTakeover(rig: Rig, count: number): Promise<number> {
  // Long enough to still be running when the other workers are up: 60 paced turns.
  const scenario = writeScenario(rig, "long", 60, 200);
  const [id] = await submitMany(rig, scenario, 1);
  const workers: WorkerProcess[] = [startWorker(rig, "victim")];
  try {
    await workers[0]!.waitFor((e) => e.event === "session started" && e.session === id);
    const others = Array.from({ length: count - 1 }, (_, i) => startWorker(rig, `s${i + 1}`));
    workers.push(...others);
    for (const w of others) await w.waitFor((e) => e.event === "ready");
    await new Promise((r) => setTimeout(r, 1_000)); // mid-session: a few turns in
    const killedAt = Date.now();
    workers[0]!.kill("SIGKILL");
    if (count === 1) workers.push(startWorker(rig, "replacement"));
    const survivors = workers.slice(1);
    const taken = await waitAny(survivors, (e) => e.event === "session started" && e.session === id);
    return Date.parse(taken.at) - killedAt;
  } finally {
    await stopAll(workers);
  }
}
