import type { DriverName } from "./drivers.js";
import type { MemoryPeak } from "./memory.js";

// The shapes `pnpm bench runtime` measures and reports.

export interface RuntimePlan {
  overheadRuns: number;
  overheadIterations: number;
  stages: number[];
  resumes: number;
  watcherIterations: number;
  /** The paced watcher run: iterations and model latency. */
  pacedIterations: number;
  pacedModelMs: number;
}

export interface OverheadFigure {
  contextTokens: number;
  medianMs: number;
  p95Ms: number;
  /** Median of each run's median, for each run. */
  runMediansMs: number[];
  measuredContext: { min: number; max: number };
}

export interface DriverResult {
  driver: DriverName;
  overhead: OverheadFigure[];
  checkpoints: Array<{
    iteration: number;
    writeMedianMs: number;
    writeSamples: number;
    resumeMedianMs: number;
    resumeSamples: number;
    liveContextTokens: number;
  }>;
  watcher: { medianMs: number; p95Ms: number; samples: number };
  watcherPaced: { medianMs: number; p95Ms: number; samples: number; modelMs: number };
  peakMemory: MemoryPeak;
}
