#!/usr/bin/env node
// Screenshots of the web console's pages (sessions, a session, workers, login) at a desktop and a
// phone size, into docs/images/console-<page>-<desktop|phone>.png, from a real `hatloop serve` in
// Debian's Chromium (apt-get install chromium; or CHROMIUM=/path/to/chrome).
//
//   pnpm build && node apps/cli/scripts/console-screenshots.mjs            # the demo's session, embedded database
//   node apps/cli/scripts/console-screenshots.mjs --db postgres://...      # your fleet's database as it is
//   ... --pages workers                                                     # only some pages (login,fleet,session,workers)
//
// It also says when a page is wider than the window (a phone must never scroll sideways).

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const out = fileURLToPath(new URL("../../../docs/images/", import.meta.url));
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const sizes = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

const dbAt = process.argv.indexOf("--db");
const db = dbAt > 0 ? process.argv[dbAt + 1] : undefined;
const pagesAt = process.argv.indexOf("--pages");
const wanted = new Set(pagesAt > 0 ? process.argv[pagesAt + 1].split(",") : ["login", "fleet", "session", "workers"]);
const home = mkdtempSync(join(tmpdir(), "hatloop-screenshots-"));
const env = { ...process.env, HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json"), HATLOOP_DATABASE__LINGER: "0" };
if (db) env.DATABASE_URL = db;
else if (wanted.has("fleet") || wanted.has("session")) {
  console.log("running the demo (a scripted session, offline)...");
  const demo = spawnSync(process.execPath, [bin, "demo", "--plain"], { env, encoding: "utf8" });
  if (demo.status !== 0) throw new Error(`hatloop demo failed: ${demo.stderr}`);
}

const serve = spawn(process.execPath, [bin, "serve", "--port", "0"], { env });
const login = await new Promise((resolve, reject) => {
  let printed = "";
  serve.stdout.on("data", (d) => {
    printed += d;
    const link = /\(console: (\S+?);/.exec(printed)?.[1];
    if (link) resolve(link);
  });
  serve.stderr.on("data", (d) => process.stderr.write(d));
  serve.on("close", (code) => reject(new Error(`hatloop serve exited (${code})`)));
});
const base = new URL("/", login).href;

// Chromium refuses to start its sandbox as root.
const browser = await chromium.launch({ executablePath, args: process.getuid?.() === 0 ? ["--no-sandbox"] : [] });
try {
  mkdirSync(out, { recursive: true });
  for (const [size, viewport] of Object.entries(sizes)) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const shoot = async (name) => {
      if (!wanted.has(name)) return;
      await page.evaluate(() => globalThis.scrollTo(0, 0));
      const wider = await page.evaluate(() => globalThis.document.documentElement.scrollWidth - globalThis.innerWidth);
      if (wider > 0) console.warn(`console-${name}-${size}: the page is ${wider}px wider than the window`);
      const path = join(out, `console-${name}-${size}.png`);
      await page.screenshot({ path });
      console.log(path);
    };
    await page.goto(new URL("/login", base).href);
    await shoot("login");
    await page.goto(login);
    await page.locator("#rows").waitFor();
    await shoot("fleet");
    const first = page.locator("#rows a").first();
    if (wanted.has("session") && (await first.count())) {
      await page.goto(new URL((await first.getAttribute("href")) ?? "/", base).href);
      // A tool result and a commit open, as a reader would have them.
      const result = page.locator("#stream details summary").first();
      if (await result.count()) {
        await result.click();
        await page.locator("#stream .result pre").first().waitFor();
      }
      const commit = page.locator("details", { has: page.locator("summary code") }).first();
      if (await commit.count()) {
        await commit.locator("summary").click();
        await commit.locator(".diff-body").filter({ hasNotText: "loading…" }).waitFor();
      }
      await shoot("session");
    }
    await page.goto(new URL("/workers", base).href);
    await shoot("workers");
    await context.close();
  }
} finally {
  await browser.close();
  serve.kill("SIGTERM");
}
