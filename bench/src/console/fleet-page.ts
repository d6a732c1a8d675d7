import { setTimeout as sleep } from "node:timers/promises";
import type { Store } from "@hatloop/core";
import type { Browser, Page } from "playwright-core";
import { median, percentile, round } from "../util/stats.js";
import { loggedIn, pageClockOffset, waitInPage, wallNow } from "./browser.js";
import { startEventLoad } from "./event-load.js";
import {
  ARRIVALS,
  INTERACTIONS,
  LONG_TASKS,
  NAVIGATION,
  ROW_COUNT,
  WATCH_INTERACTIONS,
  WATCH_LONG_TASKS,
  watchArrivals,
} from "./page-scripts.js";
import { watchUsage, type UsageWindow } from "./process-usage.js";
import { noticeEvent, type Seeded } from "./seed.js";
import type { ServeProcess } from "./serve-process.js";
import { openStreamClient, type StreamClient } from "./sse-clients.js";

// The sessions page over a large fleet, with many pages open: the page's first load (idle, then
// while the others are open and events flow), a row update's way to the browser's page and to
// every other open page, the page's responsiveness (a filter picked to the table swapped; long
// tasks), and what the server process costs meanwhile (CPU, RSS). One open page is a real browser's;
// the others are plain clients of the same live stream (sse-clients.ts), so the browser's own work
// does not take the server's cores.

const PREFIX = "bench-row-";
const ARRIVAL_GUARD_MS = 15_000;

export interface FleetPagePlan {
  /** Open pages in all: one in the browser, the rest stream clients. */
  pages: number;
  firstLoads: number;
  rowUpdates: number;
  rowIntervalMs: number;
  filterChanges: number;
  /** The background load: appends per second, events in each. */
  loadAppendsPerSecond: number;
  loadBatch: number;
}

interface LoadFigures {
  loads: number;
  rows: number;
  serverMedianMs: number;
  domContentLoadedMedianMs: number;
  loadMedianMs: number;
  htmlKb: number;
}

export interface FleetPageFigures {
  firstLoadIdle: LoadFigures;
  firstLoadBusy: LoadFigures;
  rowUpdate: {
    updates: number;
    arrivedInBrowser: number;
    browserMedianMs: number;
    browserP95Ms: number;
    /** Until the last of every open page had it (the browser's and every stream client's). */
    allPagesArrived: number;
    allPagesMedianMs: number;
    allPagesP95Ms: number;
  };
  filterChange: { changes: number; medianMs: number; maxMs: number };
  longTasks: { count: number; totalMs: number; maxMs: number };
  server: UsageWindow & { rssIdleMb: number };
  load: { eventsAppended: number; eventsPerSecond: number; sessions: number };
}

export async function measureFleetPage(
  browser: Browser,
  serve: ServeProcess,
  store: Store,
  seeded: Seeded,
  plan: FleetPagePlan,
  rssIdleMb: number,
): Promise<FleetPageFigures> {
  const firstLoadIdle = await firstLoads(browser, serve, plan.firstLoads);
  // The running sessions: half take the background load, the other half the measured updates (so a
  // load event never overwrites a measured row's marker before it is drawn). A session marked twice
  // is marked again only after every other one (plan: far apart from the rows' 100 ms coalescing).
  const half = Math.ceil(seeded.running.length / 2);
  const loaded = seeded.running.slice(0, half);
  const marked = seeded.running.slice(half);
  const context = await loggedIn(browser, serve);
  const page = await context.newPage();
  await page.goto(`${serve.base}/`, { waitUntil: "domcontentloaded" });
  await page.evaluate(WATCH_LONG_TASKS);
  await page.evaluate(WATCH_INTERACTIONS);
  await page.evaluate(watchArrivals("main", PREFIX));
  const clients: StreamClient[] = [];
  for (let i = 1; i < plan.pages; i++) clients.push(await openStreamClient(serve, "/live/fleet", PREFIX));
  // The browser's stream is open once its first swap of the rows has come (the stream sends them whole).
  await sleep(1_000);
  const usage = watchUsage(serve.pid);
  const load = startEventLoad(store, loaded, plan.loadAppendsPerSecond, plan.loadBatch);
  const loadStarted = performance.now();
  try {
    const rowUpdate = await rowUpdates(page, store, marked, clients, plan);
    const filterChange = await filterChanges(page, plan.filterChanges);
    const firstLoadBusy = await firstLoads(browser, serve, plan.firstLoads);
    const eventsAppended = await load.stop();
    serve.assertRunning();
    const loadSeconds = (performance.now() - loadStarted) / 1_000;
    const server = usage.stop();
    const longTasks = await page.evaluate<number[]>(LONG_TASKS);
    return {
      firstLoadIdle,
      firstLoadBusy,
      rowUpdate,
      filterChange,
      longTasks: {
        count: longTasks.length,
        totalMs: round(
          longTasks.reduce((a, b) => a + b, 0),
          0,
        ),
        maxMs: round(Math.max(0, ...longTasks), 0),
      },
      server: { ...roundUsage(server), rssIdleMb: round(rssIdleMb, 0) },
      load: { eventsAppended, eventsPerSecond: round(eventsAppended / loadSeconds, 0), sessions: loaded.length },
    };
  } finally {
    await load.stop();
    for (const c of clients) c.close();
    await context.close();
  }
}

function roundUsage(u: UsageWindow): UsageWindow {
  return {
    cpuPct: round(u.cpuPct, 0),
    cpuMs: round(u.cpuMs, 0),
    wallMs: round(u.wallMs, 0),
    rssMeanMb: round(u.rssMeanMb, 0),
    rssMaxMb: round(u.rssMaxMb, 0),
  };
}

/** The sessions page loaded `count` times, each in a fresh context (nothing cached): its navigation timing. */
async function firstLoads(browser: Browser, serve: ServeProcess, count: number): Promise<LoadFigures> {
  const timings: Array<{ serverMs: number; domContentLoadedMs: number; loadMs: number; htmlBytes: number }> = [];
  let rows = 0;
  for (let i = 0; i < count; i++) {
    const context = await loggedIn(browser, serve);
    const page = await context.newPage();
    await page.goto(`${serve.base}/`, { waitUntil: "load" });
    timings.push(await page.evaluate<(typeof timings)[number]>(NAVIGATION));
    rows = await page.evaluate<number>(ROW_COUNT);
    await context.close();
  }
  return {
    loads: count,
    rows,
    serverMedianMs: round(median(timings.map((t) => t.serverMs)), 0),
    domContentLoadedMedianMs: round(median(timings.map((t) => t.domContentLoadedMs)), 0),
    loadMedianMs: round(median(timings.map((t) => t.loadMs)), 0),
    htmlKb: round(median(timings.map((t) => t.htmlBytes)) / 1024, 1),
  };
}

/** Events that change a shown row, one at a time: until the browser's page and every open page have the new row. */
async function rowUpdates(
  page: Page,
  store: Store,
  sessions: readonly string[],
  clients: readonly StreamClient[],
  plan: FleetPagePlan,
): Promise<FleetPageFigures["rowUpdate"]> {
  const offset = await pageClockOffset(page);
  const sent: number[] = [];
  for (let i = 0; i < plan.rowUpdates; i++) {
    sent.push(wallNow());
    await store.events.append(sessions[i % sessions.length]!, [noticeEvent(3, `${PREFIX}${i}`)]);
    await sleep(plan.rowIntervalMs);
  }
  const everyone = `Object.keys(${ARRIVALS}).length >= ${plan.rowUpdates}`;
  await waitInPage(page, everyone, ARRIVAL_GUARD_MS);
  for (let waited = 0; waited < ARRIVAL_GUARD_MS && clients.some((c) => c.arrivals.size < plan.rowUpdates); waited += 100) await sleep(100);
  const inBrowser = await page.evaluate<Record<string, number>>(ARRIVALS);
  const browserMs: number[] = [];
  const allMs: number[] = [];
  sent.forEach((at, i) => {
    const there = inBrowser[i];
    if (there === undefined) return;
    browserMs.push(there - offset - at);
    const others = clients.map((c) => c.arrivals.get(i));
    if (others.every((t) => t !== undefined)) allMs.push(Math.max(there - offset, ...others) - at);
  });
  return {
    updates: plan.rowUpdates,
    arrivedInBrowser: browserMs.length,
    browserMedianMs: round(median(browserMs), 0),
    browserP95Ms: round(percentile(browserMs, 95), 0),
    allPagesArrived: allMs.length,
    allPagesMedianMs: round(median(allMs), 0),
    allPagesP95Ms: round(percentile(allMs, 95), 0),
  };
}

/** Picks a status filter and back, `count` times in all: from the change to the table swapped in. */
async function filterChanges(page: Page, count: number): Promise<FleetPageFigures["filterChange"]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const before = await page.evaluate<{ changes: number[]; swaps: number[] }>(INTERACTIONS);
    await page.selectOption('select[name="status"]', i % 2 === 0 ? "running" : "");
    if (!(await waitInPage(page, `window.__bench.swaps.length > ${before.swaps.length}`, 30_000)))
      throw new Error("a filter picked on the sessions page never swapped the table in");
    const after = await page.evaluate<{ changes: number[]; swaps: number[] }>(INTERACTIONS);
    latencies.push(after.swaps[before.swaps.length]! - after.changes[before.changes.length]!);
    // The search box's own delayed request (and the stream the new table opens) settle before the next pick.
    await sleep(600);
  }
  return { changes: count, medianMs: round(median(latencies), 0), maxMs: round(Math.max(...latencies), 0) };
}
