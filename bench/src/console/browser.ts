import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import type { ServeProcess } from "./serve-process.js";

// The real browser the pages are measured in: Debian's Chromium (CHROMIUM_PATH to use another),
// headless, through playwright-core. Each measured page gets a fresh context logged in with the
// server's token, so nothing is cached from an earlier page unless the figure is about the cache.

export const CHROMIUM = process.env["CHROMIUM_PATH"] || "/usr/bin/chromium";

export function chromiumInstalled(): boolean {
  return existsSync(CHROMIUM);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
}

/** A context holding the console's login cookie (the token exchanged at /login, as a person would). */
export async function loggedIn(browser: Browser, serve: ServeProcess): Promise<BrowserContext> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const response = await page.goto(`${serve.base}/login?token=${serve.token}&next=/workers`);
  if (!response?.ok()) throw new Error(`login refused: ${response?.status()}`);
  await page.close();
  return context;
}

/** This process's wall clock, with sub-millisecond resolution (the page's is read the same way). */
export const wallNow = (): number => performance.timeOrigin + performance.now();

/**
 * How far the page's wall clock is ahead of this process's, ms: from the round trip of reading it
 * that took least (both read the same system clock; this takes out what their origins disagree by).
 */
export async function pageClockOffset(page: Page, tries = 15): Promise<number> {
  let best = { rtt: Number.POSITIVE_INFINITY, offset: 0 };
  for (let i = 0; i < tries; i++) {
    const before = wallNow();
    const there = await page.evaluate(() => performance.timeOrigin + performance.now());
    const after = wallNow();
    if (after - before < best.rtt) best = { rtt: after - before, offset: there - (before + after) / 2 };
  }
  return best.offset;
}

/**
 * Waits until `expression` (source text) is true in the page, asking every 20 ms; false after
 * `timeoutMs`. Asked from here, not with waitForFunction, which compiles its text in the page: the
 * console's Content-Security-Policy rightly refuses that.
 */
export async function waitInPage(page: Page, expression: string, timeoutMs: number): Promise<boolean> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    if (await page.evaluate(expression)) return true;
    if (performance.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}
