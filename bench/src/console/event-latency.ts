import { setTimeout as sleep } from "node:timers/promises";
import type { Store } from "@hatloop/core";
import type { Browser, Page } from "playwright-core";
import { median, percentile, round } from "../util/stats.js";
import { loggedIn, pageClockOffset, waitInPage, wallNow } from "./browser.js";
import { ARRIVALS, watchArrivals } from "./page-scripts.js";
import { noticeEvent } from "./seed.js";
import type { ServeProcess } from "./serve-process.js";

// Event to an open session page: a session's page is open in the browser, following its live
// stream; events are appended through the store one at a time (as a loop's persister writes them),
// each naming its number, and a MutationObserver in the page notes when each one's list item is
// added. The latency runs from the moment the append was called (so it includes the write) to
// that; the page's clock is matched to this process's first.

/** Waited for the last events before counting the rest as lost: a hang guard, not a target. */
const ARRIVAL_GUARD_MS = 15_000;
const PREFIX = "bench-event-";
/** Warm-up events are numbered from here, apart from the measured ones. */
const WARM_UP = 1_000_000;

export interface LatencyFigures {
  events: number;
  arrived: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  /** From the append's return (the event stored) instead of its call. */
  fromStoredMedianMs: number;
  /** How long the append itself took, median. */
  appendMedianMs: number;
}

export function latencyFigures(
  sent: ReadonlyArray<{ calledAt: number; storedAt: number }>,
  arrivals: ReadonlyArray<number | undefined>,
): LatencyFigures {
  const pairs = sent.flatMap((s, i) => {
    const at = arrivals[i];
    return at === undefined ? [] : [{ ...s, at }];
  });
  const latencies = pairs.map((p) => p.at - p.calledAt);
  return {
    events: sent.length,
    arrived: pairs.length,
    medianMs: round(median(latencies), 1),
    p95Ms: round(percentile(latencies, 95), 1),
    maxMs: round(Math.max(...latencies), 1),
    fromStoredMedianMs: round(median(pairs.map((p) => p.at - p.storedAt)), 1),
    appendMedianMs: round(median(sent.map((s) => s.storedAt - s.calledAt)), 1),
  };
}

/** Opens the session's page and waits until a first event has come through its stream (it is following). */
export async function openFollowing(browser: Browser, serve: ServeProcess, store: Store, sessionId: string): Promise<Page> {
  const context = await loggedIn(browser, serve);
  const page = await context.newPage();
  await page.goto(`${serve.base}/sessions/${sessionId}`, { waitUntil: "domcontentloaded" });
  await page.evaluate(watchArrivals("#stream", PREFIX));
  for (let tries = 0; ; tries++) {
    await store.events.append(sessionId, [noticeEvent(1, `warm-up ${PREFIX}${WARM_UP + tries}`)]);
    const through = await waitInPage(page, `Object.keys(${ARRIVALS}).length > 0`, 2_000);
    if (through) break;
    if (tries === 10) throw new Error("the session page's live stream never delivered an event");
  }
  await page.evaluate(`${ARRIVALS} = {}`);
  return page;
}

export async function measureEventLatency(
  page: Page,
  store: Store,
  sessionId: string,
  options: { events: number; intervalMs: number },
): Promise<LatencyFigures> {
  const offset = await pageClockOffset(page);
  const sent: Array<{ calledAt: number; storedAt: number }> = [];
  for (let i = 0; i < options.events; i++) {
    const calledAt = wallNow();
    await store.events.append(sessionId, [noticeEvent(1, `${PREFIX}${i}`)]);
    sent.push({ calledAt, storedAt: wallNow() });
    await sleep(options.intervalMs);
  }
  await waitInPage(page, `Object.keys(${ARRIVALS}).length >= ${options.events}`, ARRIVAL_GUARD_MS);
  const arrivals = await page.evaluate<Record<string, number>>(ARRIVALS);
  return latencyFigures(
    sent,
    sent.map((_, i) => (arrivals[i] === undefined ? undefined : arrivals[i] - offset)),
  );
}
