import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { requireOrSkip } from "@hatloop/core/testing";
import { hasChromium, launchBrowser, loggedIn, markWindow, PHONE, startServe, type Served } from "./support/console.js";
import { consoleSession, type ConsoleSession } from "./support/console-session.js";

// The console in a real browser (Debian's Chromium) over `hatloop serve` and the embedded database,
// while a real session runs beside it: the sessions page lists it and updates its row in place, the
// session page's stream grows as events are stored, a tool result opens whole, a commit shows its diff,
// and the checklist, handoff, cost chart and context gauge are drawn. The scripted model holds at
// gates the test releases, so "while it runs" needs no clock.

const LINES = 2000;
const turns = [
  { write: "a", text: "Planning.\nCHECKLIST_ADD:1:note a is written\nCHECKLIST_ADD:2:note b is written" },
  { hold: "first" },
  { command: `seq 1 ${LINES}` },
  { write: "b", text: "Note b.\nCHECKLIST_DONE:1\nCHECKLIST_DONE:2" },
  { hold: "second" },
  { complete: true as const },
];

/** Waits until a row's iteration cell (the first numeric column, "N / budget") shows iteration `n`. */
const iterationShown = (page: Page, id: string, n: number) =>
  page.waitForFunction(([sel, n]) => document.querySelector(sel)?.textContent?.trim().split(" ")[0] === n, [
    `#s-${id} td.num`,
    String(n),
  ] as const);

describe.runIf(requireOrSkip(hasChromium(), "Chromium (/usr/bin/chromium: apt-get install chromium)"))(
  "the console in a browser, embedded database",
  () => {
    let browser: Browser;
    let session: ConsoleSession;
    let served: Served;
    let id: string;
    let ran: ReturnType<ConsoleSession["run"]>;
    beforeAll(async () => {
      session = consoleSession(turns);
      served = await startServe(session.env);
      browser = await launchBrowser();
    });
    afterAll(async () => {
      session.releaseAll();
      await ran;
      await browser.close();
      await served.stop();
    });

    it("the sessions page lists a session that starts after it was drawn, and updates its row in place", async () => {
      const page = await loggedIn(browser, served);
      await page.getByText("No sessions match.").waitFor();
      const samePage = await markWindow(page);
      ran = session.run();
      const row = page.locator("#rows tr", { hasText: "running" });
      await row.waitFor();
      id = (await row.getAttribute("id"))!.slice("s-".length);
      await page.locator(`#s-${id}`, { hasText: "write the notes" }).waitFor();
      // A row's iteration is the last one finished: held in iteration 2, then in iteration 5.
      await page.locator(`#s-${id}`, { hasText: "go first" }).waitFor();
      await iterationShown(page, id, 1);
      session.release("first");
      await page.locator(`#s-${id}`, { hasText: "go second" }).waitFor();
      await iterationShown(page, id, 4);
      expect(await page.locator(`#s-${id} .badge`).textContent()).toBe("running");
      expect(await samePage(), "updated in place, never reloaded").toBe(true);
      await page.context().close();
    });

    it("the session page's stream grows as events are stored; its head turns completed", async () => {
      const page = await loggedIn(browser, served);
      await page.goto(`${served.base}/sessions/${id}`);
      // Held in the command that waits for the gate (the model's words come in chunks, an item each).
      await page.locator("#stream li", { hasText: "echo go second" }).waitFor();
      const before = await page.locator("#stream > li").count();
      const samePage = await markWindow(page);
      session.release("second");
      await page.locator("#stream li", { hasText: "task_complete" }).first().waitFor();
      await page.locator("#stream li", { hasText: "session completed" }).waitFor();
      await page.locator("#head .badge", { hasText: "completed" }).waitFor();
      expect(await page.locator("#stream > li").count()).toBeGreaterThan(before);
      expect(await samePage(), "events appended, never reloaded").toBe(true);
      expect((await ran).code).toBe(0);
      await page.context().close();
    });

    it("a tool result opens whole, a commit shows its diff; checklist, handoff and both charts are drawn", async () => {
      const page = await loggedIn(browser, served);
      await page.goto(`${served.base}/sessions/${id}`);

      // The summary shows a preview; opened, the result is fetched whole (its last line too).
      const long = page.locator("#stream details", { hasText: "run_command ok" }).filter({ hasNotText: /go (first|second)/ });
      expect(await long.locator("summary").textContent()).not.toContain(String(LINES));
      await long.locator("summary").click();
      await long.locator(".result pre", { hasText: `\n${LINES}` }).waitFor();
      expect(await long.locator(".result").textContent(), "the result replaces its placeholder").not.toContain("loading…");

      // The checkpoint after iteration 1 committed note a: its diff, lines coloured as added.
      const commit = page.locator("details", { has: page.locator("summary", { hasText: /, iteration 1 / }) }).first();
      await commit.locator("summary").click();
      await commit.locator("pre.diff .add", { hasText: "+a" }).waitFor();
      expect(await commit.locator(".diff-body").textContent()).not.toContain("loading…");
      expect(await commit.locator("pre.diff").textContent()).toContain("notes/a.txt");

      expect(await page.locator("#checklist li.done").allTextContents()).toEqual(["1. note a is written", "2. note b is written"]);
      expect(await page.locator("section.panel", { hasText: "Handoff" }).locator("pre").textContent()).toContain("# Handoff");
      expect(await page.locator('svg.chart[aria-label="Cost over time"] path.line').count()).toBe(1);
      expect(await page.locator('svg.chart[aria-label^="Context size"] path.line').count()).toBe(1);
      await page.context().close();
    });

    it("at a phone's width no page scrolls sideways (a wide table or stream scrolls in its own box)", async () => {
      const page = await loggedIn(browser, served, PHONE);
      const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      for (const path of ["/", `/sessions/${id}`, "/workers"]) {
        await page.goto(`${served.base}${path}`);
        expect(await sideways(), path).toBeLessThanOrEqual(0);
      }
      // Opened, a long result and a diff stay inside the page too.
      await page.goto(`${served.base}/sessions/${id}`);
      const long = page.locator("#stream details", { hasText: "run_command ok" }).filter({ hasNotText: /go (first|second)/ });
      await long.locator("summary").click();
      await long.locator(".result pre", { hasText: `\n${LINES}` }).waitFor();
      const commit = page.locator("details", { has: page.locator("summary", { hasText: /, iteration 1 / }) }).first();
      await commit.locator("summary").click();
      await commit.locator("pre.diff").waitFor();
      expect(await sideways()).toBeLessThanOrEqual(0);
      await page.context().close();
    });
  },
);
