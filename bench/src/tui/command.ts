import { measureTui, type TuiMeasurement } from "@hatloop/tui";
import { median } from "../util/stats.js";

// The TUI under load (packages/tui/src/perf/measure.tsx): real Ink rendering into an in-memory
// 120x40 terminal, a burst of 10,000 events, then model text at 200 deltas a second. Medians of runs.

export async function tuiCommand(quick: boolean): Promise<{ json: unknown; markdown: string }> {
  const runs: TuiMeasurement[] = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) runs.push(await measureTui({ events: quick ? 2_000 : 10_000, streamSeconds: quick ? 1 : 5 }));
  const m = Object.fromEntries(
    (Object.keys(runs[0]!) as Array<keyof TuiMeasurement>).map((k) => [k, median(runs.map((r) => r[k]))]),
  ) as unknown as TuiMeasurement;
  const markdown = [
    "## TUI bench",
    "",
    `Median of ${runs.length} run(s); real Ink rendering into an in-memory 120x40 terminal${(globalThis as { gc?: unknown }).gc ? "" : " (run with node --expose-gc for exact heap figures)"}.`,
    "",
    "| what | figure |",
    "|---|---|",
    `| cost to the loop of one event | ${m.pushMicrosMedian} µs median, ${m.pushMicrosP99} µs p99 |`,
    `| a burst of ${m.events.toLocaleString("en")} events | absorbed in ${m.burstMs} ms, ${m.renders} renders |`,
    `| a render of the whole view | ${m.renderMsMedian} ms median, ${m.renderMsP95} ms p95 |`,
    `| model text at ${Math.round(m.streamDeltas / m.streamSeconds)} deltas/s for ${m.streamSeconds} s | ${m.streamRenders} renders, event-loop delay p99 ${m.eventLoopDelayP99Ms} ms |`,
    `| heap after the burst, then after as many more events | ${m.heapAfterBurstMb} MB, ${m.heapAfterSecondBurstMb} MB |`,
  ].join("\n");
  return { json: { bench: "tui", runs, median: m }, markdown };
}
