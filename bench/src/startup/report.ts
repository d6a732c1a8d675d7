import { cpus } from "node:os";

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
  /** The warm holder a short command leaves: CPU to start it, its memory while it serves the read rows. */
  holder: { startCpuMs: number; rssMb: number; peakRssMb: number };
  watch: FollowFigures;
  logsFollow: FollowFigures;
  /** loadAverage: the 1-minute load average as the bench started and as it ended. */
  run: { durationMs: number; node: string; loadAverage: [string, string] };
}

interface FollowFigures {
  medianMs: number;
  p95Ms: number;
  samples: number;
  lastEventsMedianMs: number;
}

const seconds = (ms: number): string => (ms / 1000).toFixed(2);

export function renderStartup(json: StartupJson): string {
  const { floor, rows, watch, logsFollow, holder, plan, run } = json;
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
    `Node ${run.node}, ${cpus().length} cores, load average ${run.loadAverage[0]} at the start and ${run.loadAverage[1]} at the end.`,
    `Whole processes of the built \`hatloop\` (apps/cli/dist/bin.js), medians of ${plan.runs} runs (demo: ${plan.demoRuns}); CPU is user + system of the process and the children it waited for; peak RSS is the largest process's. 16 sessions are real loop runs (the runtime bench's rig).`,
    table.join("\n"),
    `**The warm holder** the first command leaves when nothing is at rest: ${seconds(holder.startCpuMs)} s of CPU to start, ${holder.rssMb} MiB resident while it serves the rows above (peak ${holder.peakRssMb} MiB).`,
    ...(
      [
        ["hatloop watch", watch],
        ["hatloop logs -f", logsFollow],
      ] as const
    ).map(
      ([name, f]) =>
        `**Event to \`${name}\`** on the embedded database (a run holding it, ${plan.watchModelMs} ms per model call, ${plan.watchIterations} iterations, the run exits after its last event): median ${f.medianMs} ms, p95 ${f.p95Ms} ms over ${f.samples} events; the last three events, written as the run exits and the database is handed over: ${f.lastEventsMedianMs} ms (median of the runs' worst).`,
    ),
  ].join("\n\n");
}
