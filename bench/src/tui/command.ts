import { measureTui, type TuiMeasurement } from "@hatloop/tui";
import { median } from "../util/stats.js";
import { createTestDatabase } from "@hatloop/db/testing";
import { sideBySide, type SideBySideRun } from "./side-by-side.js";

// The TUI under load (packages/tui/src/perf/measure.tsx): real Ink rendering into an in-memory
// 120x40 terminal, a burst of 10,000 events, then model text at 200 deltas a second. Medians of runs.
// Then the whole product side by side: the same scripted run with the TUI and with --plain in a tmux
// pane, CPU and peak memory of each process (side-by-side.ts).

/** What the TUI may cost against the plain run (issue 28's goal). */
const GOAL = { cpuRatio: 1.5, peakRssMb: 150 };

function sideBySideMarkdown(runs: SideBySideRun[], database: string): string[] {
  const med = (pick: (r: SideBySideRun) => number) => median(runs.map(pick));
  const tuiCpu = med((r) => r.tui.cpuMs) / 1000;
  const plainCpu = med((r) => r.plain.cpuMs) / 1000;
  const ratio = med((r) => r.tui.cpuMs / r.plain.cpuMs);
  const tuiRss = med((r) => r.tui.peakRssMb);
  return [
    "",
    `### The same run with the TUI and with --plain, ${database} (tmux pane 120x40, ${runs.length} pair(s), medians)`,
    "",
    "| | TUI | --plain | ratio | goal |",
    "|---|---:|---:|---:|---|",
    `| CPU (user + system) | ${tuiCpu.toFixed(2)} s | ${plainCpu.toFixed(2)} s | ${ratio.toFixed(2)}x | <= ${GOAL.cpuRatio}x ${ratio <= GOAL.cpuRatio ? "(met)" : "(NOT met)"} |`,
    `| peak RSS | ${tuiRss.toFixed(0)} MB | ${med((r) => r.plain.peakRssMb).toFixed(0)} MB | | <= ${GOAL.peakRssMb} MB ${tuiRss <= GOAL.peakRssMb ? "(met)" : "(NOT met)"} |`,
    `| wall | ${(med((r) => r.tui.wallMs) / 1000).toFixed(1)} s | ${(med((r) => r.plain.wallMs) / 1000).toFixed(1)} s | | |`,
  ];
}

export async function tuiCommand(
  options: { quick: boolean; pg: string | null },
  log: (line: string) => void,
): Promise<{ json: unknown; markdown: string }> {
  const { quick } = options;
  const runs: TuiMeasurement[] = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) runs.push(await measureTui({ events: quick ? 2_000 : 10_000, streamSeconds: quick ? 1 : 5 }));
  const m = Object.fromEntries(
    (Object.keys(runs[0]!) as Array<keyof TuiMeasurement>).map((k) => [k, median(runs.map((r) => r[k]))]),
  ) as unknown as TuiMeasurement;
  const plan = { turns: quick ? 2 : 30, pairs: quick ? 1 : 3 };
  const embedded = await sideBySide({ ...plan, databaseUrl: null }, log);
  const postgres = options.pg ? await withDatabase(options.pg, (url) => sideBySide({ ...plan, databaseUrl: url }, log)) : null;
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
    ...sideBySideMarkdown(embedded, "on the embedded database"),
    ...(postgres
      ? sideBySideMarkdown(postgres, "on Postgres")
      : ["", "(Postgres side by side skipped: pass --pg URL or set HATLOOP_TEST_DATABASE_URL.)"]),
  ].join("\n");
  return { json: { bench: "tui", runs, median: m, sideBySide: { embedded, postgres } }, markdown };
}

/** A database of its own on the server, dropped afterwards. */
async function withDatabase<T>(pg: string, work: (url: string) => Promise<T>): Promise<T> {
  process.env["HATLOOP_TEST_DATABASE_URL"] = pg;
  const database = await createTestDatabase();
  try {
    return await work(database.url);
  } finally {
    await database.drop();
  }
}
