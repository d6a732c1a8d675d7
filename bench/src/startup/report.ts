// Markdown for the startup bench: every row next to `node -e 0`.

export interface StartupRow {
  what: string;
  runs: number;
  /** Medians over the runs. */
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
}

export interface StartupJson {
  bench: "startup";
  version: 1;
  plan: { runs: number; demoRuns: number; watchIterations: number; watchModelMs: number };
  floor: { wallMs: number; peakRssMb: number };
  rows: StartupRow[];
  watch: { medianMs: number; p95Ms: number; samples: number; lastEventsMedianMs: number };
  run: { durationMs: number; node: string };
}

const seconds = (ms: number): string => (ms / 1000).toFixed(2);

export function renderStartup(json: StartupJson): string {
  const { floor, rows, watch, plan } = json;
  const table = [
    "| what | wall, s | × node -e 0 | CPU, s | peak RSS, MiB |",
    "|---|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.what} | ${seconds(r.wallMs)} | ${(r.wallMs / floor.wallMs).toFixed(1)} | ${seconds(r.cpuMs)} | ${r.peakRssMb.toFixed(0)} |`,
    ),
  ];
  return [
    "## Startup bench",
    `Whole processes of the built \`hatloop\` (apps/cli/dist/bin.js), medians of ${plan.runs} runs (demo: ${plan.demoRuns}); CPU is user + system of the process and the children it waited for; peak RSS is the largest process's. 16 sessions are real loop runs (the runtime bench's rig).`,
    table.join("\n"),
    `**Event to \`hatloop watch\`** on the embedded database (a run holding it, ${plan.watchModelMs} ms per model call, ${plan.watchIterations} iterations, the run exits after its last event): median ${watch.medianMs} ms, p95 ${watch.p95Ms} ms over ${watch.samples} events; the last three events, written as the run exits and the database is handed over: ${watch.lastEventsMedianMs} ms (median of the runs' worst).`,
  ].join("\n\n");
}
