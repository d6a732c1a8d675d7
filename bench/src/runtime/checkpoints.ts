import type { Store } from "@hatloop/core";
import { createRig } from "./rig.js";

// Checkpoint write and resume latency as a session ages. One session runs to each stage (10, 100,
// 1,000 iterations) in the product's default 200k window, so by 1,000 it has compacted many times;
// there it is resumed several times, one iteration each. A write is timed from the worktree commit
// (the first step of Checkpointer.save) to its checkpoint.saved event; a resume from the runLoop call
// to the first model call (restore from the checkpoint, replay, resume packet, context guard).

const CHECKPOINT_WINDOW = 200_000;

export interface StageResult {
  iteration: number;
  writeMs: number[];
  resumeMs: number[];
  liveContextTokens: number;
}

export async function measureCheckpoints(
  store: Store,
  stages: readonly number[],
  resumes: number,
  log: (line: string) => void,
): Promise<StageResult[]> {
  const rig = await createRig(store, { window: CHECKPOINT_WINDOW, fillTo: 0 });
  let writeStart = 0;
  let writes: Array<{ iteration: number; ms: number }> = [];
  // Set by the model callback while runUntil runs (an object, so the check after the await is not narrowed away).
  const first: { call: number | null } = { call: null };
  let context = 0;
  rig.onCheckpointStart = () => {
    writeStart = performance.now();
  };
  rig.onModelCall = () => {
    first.call ??= performance.now();
  };
  rig.listeners.push((event) => {
    if (event.type === "checkpoint.saved") writes.push({ iteration: event.iteration, ms: performance.now() - writeStart });
    if (event.type === "usage.total") context = event.data.contextTokens;
  });
  const results: StageResult[] = [];
  for (const stage of stages) {
    await rig.runUntil(stage);
    const atStage = writes.filter((w) => w.iteration === stage).map((w) => w.ms);
    writes = [];
    const resumeMs: number[] = [];
    for (let r = 1; r <= resumes; r++) {
      first.call = null;
      await rig.runUntil(stage + r);
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by a callback or another task while this one awaited; TypeScript keeps the narrowing from before
      if (first.call !== null) resumeMs.push(first.call - rig.runStartedAt);
    }
    results.push({ iteration: stage, writeMs: [...atStage, ...writes.map((w) => w.ms)], resumeMs, liveContextTokens: context });
    writes = [];
    log(`runtime: checkpoints at iteration ${stage} done`);
  }
  return results;
}
