import { Writable } from "node:stream";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { render } from "ink";
import type { LoopEvent } from "@hatloop/core";
import { initialState } from "../state/initial.js";
import { createTuiStore } from "../state/store.js";
import { SessionView } from "../views/SessionView.js";
import { VIEW_OPTIONS } from "../view-options.js";

// How the TUI holds up under load, measured with real Ink rendering to an in-memory terminal: a
// burst of 10,000 events (what the loop pays per event, what the screen costs, memory), then model
// text streaming at 200 deltas a second (renders, event-loop delay).

export interface TuiMeasurement {
  events: number;
  pushMicrosMedian: number;
  pushMicrosP99: number;
  burstMs: number;
  renders: number;
  renderMsMedian: number;
  renderMsP95: number;
  streamDeltas: number;
  streamSeconds: number;
  streamRenders: number;
  eventLoopDelayP99Ms: number;
  heapAfterBurstMb: number;
  heapAfterSecondBurstMb: number;
  bytesWritten: number;
}

class FakeTerminal extends Writable {
  bytes = 0;
  columns = 120;
  rows = 40;
  isTTY = true;
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.bytes += chunk.length;
    done();
  }
}

const ev = (type: string, data: unknown, iteration: number): LoopEvent =>
  ({ sessionId: "bench", iteration, ts: Date.now(), type, data }) as LoopEvent;

/** A realistic event mix: iteration markers, tool calls and results, signals, usage. */
function* eventMix(count: number): Generator<LoopEvent> {
  for (let i = 0; i < count; i++) {
    const it = Math.floor(i / 10) + 1;
    const k = i % 10;
    if (k === 0) yield ev("iteration.start", { hat: "creator" }, it);
    else if (k % 2 === 1) yield ev("tool.call", { id: `t${i}`, name: "read_file", summary: `src/module-${i}.ts` }, it);
    else if (k === 8)
      yield ev(
        "usage.total",
        {
          usage: { inputTokens: i, outputTokens: i, cacheReadTokens: i * 10, cacheWriteTokens: i },
          costUsd: i / 1e4,
          contextTokens: 100_000 + i,
          contextWindow: 200_000,
        },
        it,
      );
    else
      yield ev(
        "tool.result",
        { id: `t${i}`, name: "read_file", isError: false, chars: 3000, durationMs: 2, preview: "export function handler" },
        it,
      );
  }
}

const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]! : 0;
const heapMb = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round((process.memoryUsage().heapUsed / 1_048_576) * 10) / 10;
};

export async function measureTui(
  options: { events?: number; deltasPerSecond?: number; streamSeconds?: number } = {},
): Promise<TuiMeasurement> {
  const count = options.events ?? 10_000;
  const store = createTuiStore(
    initialState({
      id: "bench-0000",
      task: "load test",
      branch: "hatloop/bench",
      model: "scripted",
      hat: "creator",
      iteration: 0,
      status: "running",
      stopReason: null,
      runtimeMs: 0,
      contextTokens: 0,
      contextWindow: 200_000,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0,
      budgets: { maxIterations: null, maxTokens: null, maxCostUsd: null, maxRuntimeMs: null },
      scratchpad: "## Current Plan\n1. [ ] a\n2. [ ] b",
    }),
  );
  const terminal = new FakeTerminal();
  const renderTimes: number[] = [];
  const app = render(<SessionView store={store} onQuit={() => {}} />, {
    stdout: terminal as unknown as NodeJS.WriteStream,
    ...VIEW_OPTIONS,
    onRender: ({ renderTime }) => renderTimes.push(renderTime),
  });

  // Burst: the loop emits as fast as it can, yielding to the event loop every 100 events.
  const pushes: number[] = [];
  const burst = async () => {
    const started = performance.now();
    let n = 0;
    for (const event of eventMix(count)) {
      const t = performance.now();
      store.push(event);
      pushes.push((performance.now() - t) * 1000);
      if (++n % 100 === 0) await new Promise((r) => setImmediate(r));
    }
    return performance.now() - started;
  };
  const burstMs = await burst();
  await sleep(100);
  const heapAfterBurst = heapMb();
  const rendersAfterBurst = renderTimes.length;

  // Stream: model text at a steady rate, while the event-loop delay is watched.
  const rate = options.deltasPerSecond ?? 200;
  const seconds = options.streamSeconds ?? 5;
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const streamStart = renderTimes.length;
  let deltas = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      for (let i = 0; i < Math.max(1, Math.round(rate / 100)); i++)
        store.push(ev("model.text", { text: `token${deltas++} ${deltas % 12 === 0 ? "\n" : ""}` }, count));
      if (deltas >= rate * seconds) {
        clearInterval(timer);
        resolve();
      }
    }, 10);
  });
  delay.disable();
  await sleep(100);
  const streamRenders = renderTimes.length - streamStart;

  await burst();
  await sleep(100);
  const heapAfterSecond = heapMb();
  app.unmount();
  return {
    events: count,
    pushMicrosMedian: Math.round(pct(pushes, 0.5) * 10) / 10,
    pushMicrosP99: Math.round(pct(pushes, 0.99) * 10) / 10,
    burstMs: Math.round(burstMs),
    renders: rendersAfterBurst,
    renderMsMedian: Math.round(pct(renderTimes, 0.5) * 100) / 100,
    renderMsP95: Math.round(pct(renderTimes, 0.95) * 100) / 100,
    streamDeltas: deltas,
    streamSeconds: seconds,
    streamRenders,
    eventLoopDelayP99Ms: Math.round((delay.percentile(99) / 1e6) * 10) / 10,
    heapAfterBurstMb: heapAfterBurst,
    heapAfterSecondBurstMb: heapAfterSecond,
    bytesWritten: terminal.bytes,
  };
}
