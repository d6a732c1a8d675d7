import type { LatencyFigures } from "./event-latency.js";
import type { FleetPageFigures } from "./fleet-page.js";
import type { PageWeight } from "./page-weight.js";
import type { ConsolePlan } from "./plan.js";

// The console bench's results as written to console-latest.json, and its Markdown.

export interface LatencyRow extends LatencyFigures {
  database: string;
}

export interface ConsoleJson {
  bench: "console";
  version: 1;
  plan: ConsolePlan;
  latency: LatencyRow[];
  fleet: FleetPageFigures & { database: string; sessions: number; running: number; pages: number };
  pages: PageWeight[];
  run: {
    durationMs: number;
    node: string;
    chromium: string;
    cores: number;
    /** os.loadavg() (1, 5 and 15 minutes) as the bench started and as it ended. */
    loadAverage: { start: number[]; end: number[] };
  };
}

const ms = (n: number) => `${n.toFixed(0)} ms`;
const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(" / ");

export function renderConsole(json: ConsoleJson): string {
  const { plan, fleet, run } = json;
  const latency = [
    "| database | events | arrived | median | p95 | max | median from stored | append median |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...json.latency.map(
      (r) =>
        `| ${r.database} | ${r.events} | ${r.arrived} | ${ms(r.medianMs)} | ${ms(r.p95Ms)} | ${ms(r.maxMs)} | ${ms(r.fromStoredMedianMs)} | ${r.appendMedianMs.toFixed(1)} ms |`,
    ),
  ];
  const f = fleet;
  const fleetTable = [
    "| | |",
    "|---|---:|",
    `| first load, idle: server (request to first byte) / DOMContentLoaded / load (median of ${f.firstLoadIdle.loads}) | ${ms(f.firstLoadIdle.serverMedianMs)} / ${ms(f.firstLoadIdle.domContentLoadedMedianMs)} / ${ms(f.firstLoadIdle.loadMedianMs)} |`,
    `| first load, busy (${f.pages} pages open, events flowing) | ${ms(f.firstLoadBusy.serverMedianMs)} / ${ms(f.firstLoadBusy.domContentLoadedMedianMs)} / ${ms(f.firstLoadBusy.loadMedianMs)} |`,
    `| rows on the page, HTML compressed | ${f.firstLoadIdle.rows}, ${f.firstLoadIdle.htmlKb.toFixed(1)} KB |`,
    `| row update to the browser's page: median / p95 (${f.rowUpdate.arrivedInBrowser} of ${f.rowUpdate.updates} arrived) | ${ms(f.rowUpdate.browserMedianMs)} / ${ms(f.rowUpdate.browserP95Ms)} |`,
    `| row update to the last of all ${f.pages} pages: median / p95 (${f.rowUpdate.allPagesArrived} of ${f.rowUpdate.updates}) | ${ms(f.rowUpdate.allPagesMedianMs)} / ${ms(f.rowUpdate.allPagesP95Ms)} |`,
    `| filter picked to table swapped: median / max (${f.filterChange.changes}) | ${ms(f.filterChange.medianMs)} / ${ms(f.filterChange.maxMs)} |`,
    `| long tasks in the page (over 50 ms): count / total / longest | ${f.longTasks.count} / ${ms(f.longTasks.totalMs)} / ${ms(f.longTasks.maxMs)} |`,
    `| server CPU while busy (share of one core) | ${f.server.cpuPct.toFixed(0)}% (${(f.server.cpuMs / 1000).toFixed(1)} s over ${(f.server.wallMs / 1000).toFixed(1)} s) |`,
    `| server RSS: idle / mean busy / max busy | ${f.server.rssIdleMb} / ${f.server.rssMeanMb} / ${f.server.rssMaxMb} MiB |`,
    `| events appended meanwhile | ${f.load.eventsAppended} (${f.load.eventsPerSecond}/s over ${f.load.sessions} sessions) |`,
  ];
  const pages = [
    "| page | scripts | JS, compressed | JS, decoded | CSS, compressed | HTML, compressed | HTML, decoded |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...json.pages.map(
      (p) =>
        `| ${p.page} (\`${p.path}\`) | ${p.scripts} | ${p.jsKb.toFixed(1)} KB | ${p.jsDecodedKb.toFixed(1)} KB | ${p.cssKb.toFixed(1)} KB | ${p.htmlKb.toFixed(1)} KB | ${p.htmlDecodedKb.toFixed(1)} KB |`,
    ),
  ];
  return [
    "## Console bench",
    `\`hatloop serve\` (the built binary) as its own process; pages in headless Chromium ${run.chromium} (playwright-core); events appended through the store from the bench's process, as a loop's persister writes them. Node ${run.node}, ${run.cores} cores, load average (1/5/15 min) ${load(run.loadAverage.start)} at the start, ${load(run.loadAverage.end)} at the end.`,
    `**Event to an open session page** (${plan.latency.events} events, one every ${plan.latency.intervalMs} ms; from the append's call to the event's list item added to the page, seen by a MutationObserver):`,
    latency.join("\n"),
    `**The sessions page over ${f.sessions} sessions** (${f.running} running; ${f.database}), ${f.pages} pages open: one in the browser, ${f.pages - 1} plain clients of the same live stream; ${f.load.eventsPerSecond} events/s appended meanwhile (batches of ${plan.fleet.loadBatch}):`,
    fleetTable.join("\n"),
    "**First load of each page** (fresh browser context; sizes as served, gzip):",
    pages.join("\n"),
  ].join("\n\n");
}
