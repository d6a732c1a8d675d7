import type { BenchArgs } from "../args.js";
import { median, percentile, round } from "../util/stats.js";
import { measureCheckpoints, type StageResult } from "./checkpoints.js";
import { openDriver, type DriverName } from "./drivers.js";
import { MemorySampler } from "./memory.js";
import { measureOverhead } from "./overhead.js";
import { renderRuntime } from "./report.js";
import type { DriverResult, OverheadFigure, RuntimePlan } from "./results.js";
import { measureWatcher } from "./watcher.js";

// `pnpm bench runtime`: the loop itself, with a zero-latency model and no-op tools, on PGlite and
// (when a server is given) Postgres. Every figure is a median over several runs or samples.

const CONTEXT_SIZES = [10_000, 100_000, 200_000] as const;

function runtimePlan(quick: boolean): RuntimePlan {
  return quick
    ? {
        overheadRuns: 1,
        overheadIterations: 8,
        stages: [10, 100],
        resumes: 2,
        watcherIterations: 60,
        pacedIterations: 10,
        pacedModelMs: 100,
      }
    : {
        overheadRuns: 5,
        overheadIterations: 30,
        stages: [10, 100, 1000],
        resumes: 5,
        watcherIterations: 300,
        pacedIterations: 40,
        pacedModelMs: 100,
      };
}

export async function runtimeCommand(args: BenchArgs, log: (line: string) => void): Promise<{ json: unknown; markdown: string }> {
  const started = Date.now();
  const plan = runtimePlan(args.quick);
  const drivers: DriverName[] = args.pg ? ["pglite", "postgres"] : ["pglite"];
  const skipped = args.pg ? null : "Postgres skipped: set HATLOOP_TEST_DATABASE_URL or pass --pg URL to include it.";
  if (skipped) log(`runtime: ${skipped}`);
  const whole = new MemorySampler();
  const results: DriverResult[] = [];
  for (const driver of drivers) results.push(await runDriver(driver, args.pg, plan, log));
  const peak = whole.stop();
  const json = {
    bench: "runtime",
    version: 1,
    plan,
    drivers: results,
    skipped,
    peakMemory: peak,
    run: { durationMs: Date.now() - started, node: process.version },
  };
  return { json, markdown: renderRuntime(results, plan, skipped, peak) };
}

async function runDriver(driver: DriverName, pg: string | null, plan: RuntimePlan, log: (line: string) => void): Promise<DriverResult> {
  const memory = new MemorySampler();
  const db = await openDriver(driver, pg);
  try {
    const overhead: OverheadFigure[] = [];
    for (const size of CONTEXT_SIZES) {
      const runs = [];
      for (let r = 0; r < plan.overheadRuns; r++) runs.push(await measureOverhead(db.store, size, plan.overheadIterations));
      const all = runs.flatMap((x) => x.samplesMs);
      overhead.push({
        contextTokens: size,
        medianMs: round(median(runs.map((x) => median(x.samplesMs))), 3),
        p95Ms: round(percentile(all, 95), 3),
        runMediansMs: runs.map((x) => round(median(x.samplesMs), 3)),
        measuredContext: { min: Math.min(...runs.map((x) => x.contextTokens.min)), max: Math.max(...runs.map((x) => x.contextTokens.max)) },
      });
      log(`runtime: ${driver} overhead at ${size / 1000}k tokens: ${overhead.at(-1)!.medianMs} ms`);
    }
    const stages: StageResult[] = await measureCheckpoints(db.store, plan.stages, plan.resumes, (l) => log(`${l} (${driver})`));
    const latencies = await measureWatcher(db.store, db.url, plan.watcherIterations);
    const paced = await measureWatcher(db.store, db.url, plan.pacedIterations, plan.pacedModelMs);
    log(`runtime: ${driver} watcher latency ${round(median(latencies), 1)} ms`);
    return {
      driver,
      overhead,
      checkpoints: stages.map((s) => ({
        iteration: s.iteration,
        writeMedianMs: round(median(s.writeMs), 2),
        writeSamples: s.writeMs.length,
        resumeMedianMs: round(median(s.resumeMs), 2),
        resumeSamples: s.resumeMs.length,
        liveContextTokens: s.liveContextTokens,
      })),
      watcher: { medianMs: round(median(latencies), 1), p95Ms: round(percentile(latencies, 95), 1), samples: latencies.length },
      watcherPaced: {
        medianMs: round(median(paced), 1),
        p95Ms: round(percentile(paced, 95), 1),
        samples: paced.length,
        modelMs: plan.pacedModelMs,
      },
      peakMemory: memory.stop(),
    };
  } finally {
    await db.close();
  }
}
