import { fork, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openStore } from "@hatloop/db";
import { RESTING_FILE } from "@hatloop/db/at-rest";
import { createTestDatabase } from "@hatloop/db/testing";
import { HATLOOP_BIN } from "../fleet/processes.js";
import { median, percentile, round } from "../util/stats.js";
import { renderStartup, type StartupJson, type StartupRow } from "./report.js";
import { seedSessions } from "./seed.js";
import { timedRun } from "./timed-process.js";
import { holderFigures, procFigures, stopWarmHolder } from "./warm-holder.js";
import { LOGS_FOLLOW, measureWatch, WATCH, type Follower } from "./watch-latency.js";

// `pnpm bench startup`: what a person waits for. Every row is a whole `hatloop` process (the built
// binary), run several times, next to `node -e 0`: median wall time, CPU and peak RSS.

const holderChild = fileURLToPath(new URL("./holder-child.js", import.meta.url));

interface StartupPlan {
  runs: number;
  demoRuns: number;
  watchIterations: number;
  watchModelMs: number;
}

function startupPlan(quick: boolean): StartupPlan {
  return quick
    ? { runs: 2, demoRuns: 1, watchIterations: 10, watchModelMs: 100 }
    : { runs: 7, demoRuns: 3, watchIterations: 40, watchModelMs: 100 };
}

export async function startupCommand(
  quick: boolean,
  pg: string | null,
  log: (line: string) => void,
): Promise<{ json: unknown; markdown: string }> {
  const started = Date.now();
  const loadAvgAtStart = loadavg()[0]!.toFixed(2);
  const plan = startupPlan(quick);
  const root = mkdtempSync(join(tmpdir(), "hatloop-bench-startup-"));
  // No configuration file, no user home: what a fresh install sees.
  const config = join(root, "none.json");
  writeFileSync(config, "{}\n");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env["PATH"],
    HOME: root,
    HATLOOP_HOME: join(root, "home"),
    HATLOOP_CONFIG: config,
    NO_COLOR: "1",
  };
  const rows: StartupRow[] = [];
  const measure = async (what: string, args: readonly string[], runs = plan.runs, before?: () => unknown): Promise<StartupRow> => {
    const samples = [];
    for (let i = 0; i < runs; i++) {
      await before?.();
      const figures = await timedRun(process.execPath, args, { env, cwd: root, timeoutMs: 180_000 });
      if (figures.code !== 0) throw new Error(`${what}: exited ${figures.code}: ${figures.stderr.trim().split("\n").at(-1)}`);
      samples.push(figures);
    }
    const row: StartupRow = {
      what,
      runs,
      wallMs: round(median(samples.map((s) => s.wallMs)), 0),
      cpuMs: round(median(samples.map((s) => s.cpuMs)), 0),
      peakRssMb: round(median(samples.map((s) => s.peakRssMb)), 0),
    };
    rows.push(row);
    log(`startup: ${what}: ${row.wallMs} ms, ${row.cpuMs} ms CPU, ${row.peakRssMb} MiB`);
    return row;
  };
  try {
    const floor = await measure("node -e 0", ["-e", "0"]);
    await measure("hatloop --help", [HATLOOP_BIN, "--help"]);
    await measure("hatloop --version", [HATLOOP_BIN, "--version"]);

    const dataDir = join(root, "data");
    const seeded = await openStore({ url: dataDir });
    const id = await seedSessions(seeded);
    await seeded.close();
    log("startup: 16 sessions seeded in the embedded database");
    const reads = (db: string): Array<[string, string[]]> => [
      ["ls", [HATLOOP_BIN, "--db", db, "ls", "--plain"]],
      ["show", [HATLOOP_BIN, "--db", db, "show", id]],
      ["logs", [HATLOOP_BIN, "--db", db, "logs", id]],
      ["handoff", [HATLOOP_BIN, "--db", db, "handoff", id]],
    ];
    // With nobody holding the directory, `ls` reads what its last holder left (the seeding store,
    // here) and starts no Postgres, so it leaves no holder either.
    const [ls] = reads(dataDir);
    const atRest = join(dataDir, RESTING_FILE);
    await measure("ls, embedded, 16 sessions, nobody holding it", ls![1], plan.runs, () => {
      if (!existsSync(atRest)) throw new Error(`ls opened the database: ${atRest} is gone`);
    });
    // Without that (its holder was killed, or hatloop was upgraded), the first command opens the
    // directory itself, and leaves a holder behind as it exits: stopped before the next run.
    let appearing = false;
    await measure("ls, embedded, 16 sessions, nobody holding it, nothing at rest", ls![1], plan.runs, async () => {
      await stopWarmHolder(dataDir, { appearing });
      rmSync(atRest, { force: true });
      appearing = true;
    });
    // The holder the last of those commands left: what it took to start, and what it holds while it serves.
    const warm = await holderFigures(dataDir);
    for (const [name, args] of reads(dataDir)) await measure(`${name}, embedded, 16 sessions`, args);
    const serving = procFigures(warm.pid);
    const holder = { startCpuMs: round(warm.cpuMs, 0), rssMb: round(serving.rssMb, 0), peakRssMb: round(serving.peakRssMb, 0) };
    log(`startup: the warm holder: ${holder.startCpuMs} ms CPU to start, ${holder.rssMb} MiB (peak ${holder.peakRssMb} MiB)`);
    await stopWarmHolder(dataDir);
    const run = await startHolder(dataDir);
    try {
      for (const [name, args] of reads(dataDir)) await measure(`${name}, embedded, while a run holds it`, args);
    } finally {
      await stopHolder(run);
    }
    if (pg) {
      process.env["HATLOOP_TEST_DATABASE_URL"] = pg;
      const database = await createTestDatabase();
      try {
        const store = await openStore({ url: database.url });
        await seedSessions(store);
        await store.close();
        await measure("ls, Postgres, 16 sessions", [HATLOOP_BIN, "--db", database.url, "ls", "--plain"]);
      } finally {
        await database.drop();
      }
    } else log("startup: Postgres skipped: set HATLOOP_TEST_DATABASE_URL or pass --pg URL to include it.");

    const fresh = join(root, "demo-fresh");
    await measure("demo, fresh data directory", [HATLOOP_BIN, "--db", fresh, "demo", "--plain"], plan.demoRuns, () =>
      rmSync(fresh, { recursive: true, force: true }),
    );
    const existing = join(root, "demo-existing");
    await timedRun(process.execPath, [HATLOOP_BIN, "--db", existing, "demo", "--plain"], { env, cwd: root });
    await measure("demo, existing data directory", [HATLOOP_BIN, "--db", existing, "demo", "--plain"], plan.demoRuns);

    const followed = async (follower: Follower, name: string) => {
      const latencies: number[] = [];
      const lastEvents: number[] = [];
      for (let i = 0; i < plan.demoRuns; i++) {
        const run = await measureWatch(join(root, "watch"), env, plan.watchIterations, plan.watchModelMs, follower);
        // The follower leaves a warm holder as it exits: stopped, so that every run holds the
        // directory itself, as a `hatloop run` started first does.
        await stopWarmHolder(join(root, "watch"), { appearing: true });
        latencies.push(...run.latenciesMs);
        lastEvents.push(run.lastEventsMs);
      }
      const figures = {
        medianMs: round(median(latencies), 0),
        p95Ms: round(percentile(latencies, 95), 0),
        samples: latencies.length,
        lastEventsMedianMs: round(median(lastEvents), 0),
      };
      log(`startup: event to ${name} ${figures.medianMs} ms median, last events ${figures.lastEventsMedianMs} ms`);
      return figures;
    };
    const watch = await followed(WATCH, "watch");
    const logsFollow = await followed(LOGS_FOLLOW, "logs -f");
    const json: StartupJson = {
      bench: "startup",
      version: 1,
      plan,
      floor: { wallMs: floor.wallMs, peakRssMb: floor.peakRssMb },
      rows,
      holder,
      watch,
      logsFollow,
      run: { durationMs: Date.now() - started, node: process.version, loadAverage: [loadAvgAtStart, loadavg()[0]!.toFixed(2)] },
    };
    return { json, markdown: renderStartup(json) };
  } finally {
    // The warm holders short commands left (each would linger its two minutes in a deleted directory).
    for (const dir of ["data", "watch"]) await stopWarmHolder(join(root, dir));
    rmSync(root, { recursive: true, force: true });
  }
}

async function startHolder(dataDir: string): Promise<ChildProcess> {
  const child = fork(holderChild, [dataDir], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the holder exited (${code})`)));
    child.once("message", () => resolve());
  });
  return child;
}

async function stopHolder(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.send("stop");
  await exited;
}
