import type { Store } from "@hatloop/core";
import { createRig } from "./rig.js";

// Loop overhead per iteration at a given context size: the time between two iteration starts
// (control, budgets, health, context guard, request building, storing messages, signals, routing,
// checkpoints, events) minus the model's and the tools' own time. The window is raised to 1M tokens
// so that the guard does not compact: the context stays at the size being measured.

const OVERHEAD_WINDOW = 1_000_000;

export interface OverheadRun {
  samplesMs: number[];
  contextTokens: { min: number; max: number };
}

export async function measureOverhead(store: Store, size: number, iterations: number): Promise<OverheadRun> {
  const rig = await createRig(store, { window: OVERHEAD_WINDOW, fillTo: size });
  const samplesMs: number[] = [];
  const contexts: number[] = [];
  let lastStart: number | null = null;
  let filling = true;
  let context = 0;
  rig.onModelCall = (f) => {
    filling = f;
  };
  rig.listeners.push((event) => {
    if (event.type === "usage.total") context = event.data.contextTokens;
    if (event.type !== "iteration.start") return;
    const now = performance.now();
    const work = rig.work.take();
    if (lastStart !== null && !filling) {
      samplesMs.push(now - lastStart - work);
      contexts.push(context);
      if (samplesMs.length >= iterations) rig.stop();
    }
    lastStart = now;
  });
  await rig.runUntil(10_000);
  return { samplesMs, contextTokens: { min: Math.min(...contexts), max: Math.max(...contexts) } };
}
