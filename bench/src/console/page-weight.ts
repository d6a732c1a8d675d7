import type { Browser } from "playwright-core";
import { round } from "../util/stats.js";
import { loggedIn } from "./browser.js";
import { NAVIGATION, RESOURCES } from "./page-scripts.js";
import type { ServeProcess } from "./serve-process.js";

// What a first visit to each kind of page downloads, in a fresh browser context (nothing cached): the
// HTML, the scripts and the style sheets, each as it came over the wire (compressed as the server
// served it: the resource timing's encoded body size) and decoded. The live streams are not counted:
// they are what the page is sent later, not what it loads.

export interface PageWeight {
  page: string;
  path: string;
  scripts: number;
  jsKb: number;
  jsDecodedKb: number;
  cssKb: number;
  htmlKb: number;
  htmlDecodedKb: number;
}

const kb = (bytes: number) => round(bytes / 1024, 1);

export async function measurePageWeights(browser: Browser, serve: ServeProcess, sessionId: string): Promise<PageWeight[]> {
  const pages = [
    { page: "sessions", path: "/" },
    { page: "session", path: `/sessions/${sessionId}` },
    { page: "workers", path: "/workers" },
    { page: "login", path: "/login" },
  ];
  const weights: PageWeight[] = [];
  for (const { page: name, path } of pages) {
    const context = name === "login" ? await browser.newContext() : await loggedIn(browser, serve);
    const page = await context.newPage();
    await page.goto(`${serve.base}${path}`, { waitUntil: "load" });
    const nav = await page.evaluate<{ htmlBytes: number; htmlDecodedBytes: number }>(NAVIGATION);
    const resources = await page.evaluate<Array<{ initiatorType: string; encodedBytes: number; decodedBytes: number }>>(RESOURCES);
    const scripts = resources.filter((r) => r.initiatorType === "script");
    const styles = resources.filter((r) => r.initiatorType === "link" || r.initiatorType === "css");
    const sum = (list: typeof resources, key: "encodedBytes" | "decodedBytes") => list.reduce((n, r) => n + r[key], 0);
    weights.push({
      page: name,
      path: name === "session" ? "/sessions/ID" : path,
      scripts: scripts.length,
      jsKb: kb(sum(scripts, "encodedBytes")),
      jsDecodedKb: kb(sum(scripts, "decodedBytes")),
      cssKb: kb(sum(styles, "encodedBytes")),
      htmlKb: kb(nav.htmlBytes),
      htmlDecodedKb: kb(nav.htmlDecodedBytes),
    });
    await context.close();
  }
  return weights;
}
