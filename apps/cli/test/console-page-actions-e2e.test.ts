import { afterEach, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { requireOrSkip } from "@hatloop/core/testing";
import { hasChromium, launchBrowser, loggedIn, startServe, type Served } from "./support/console.js";
import { consoleSession, newestSessionId, type ConsoleSession } from "./support/console-session.js";

// The console's actions, clicked in a real browser over `hatloop serve` and the embedded database:
// the agent's question answered in the page (the loop goes on), a running session stopped and
// resumed, a session paused on its iteration budget given more (and going on). What each does is
// read back from the page itself, as its live stream redraws it.

const QUESTION = "Which licence should the notes carry: MIT or Apache-2.0?";

/** Waits until the session page's head shows `status`. */
const statusShown = (page: Page, status: string) => page.locator("#head .badge", { hasText: new RegExp(`^${status}$`) }).waitFor();

/** The line an action answered with, in the page's notice area; it must say the action was done. */
async function noticeOf(page: Page): Promise<string> {
  const notice = page.locator("#toast p");
  await notice.waitFor();
  const text = (await notice.textContent()) ?? "";
  expect(await notice.evaluate((p) => p.classList.contains("ok")), text).toBe(true);
  return text;
}

describe.runIf(requireOrSkip(hasChromium(), "Chromium (/usr/bin/chromium: apt-get install chromium)"))(
  "the console's actions in a browser, embedded database",
  () => {
    const started: Array<{ served: Served; browser: Browser; session: ConsoleSession }> = [];
    afterEach(async () => {
      for (const { served, browser, session } of started.splice(0)) {
        session.releaseAll(); // a failed test's held run ends too
        await browser.close();
        await served.stop();
      }
    });

    /** A session's page in a logged-in browser, over a server of its own. */
    async function open(session: ConsoleSession): Promise<{ page: Page; id: string }> {
      const served = await startServe(session.env);
      const browser = await launchBrowser();
      started.push({ served, browser, session });
      const id = await newestSessionId(session);
      const page = await loggedIn(browser, served);
      await page.goto(`${served.base}/sessions/${id}`);
      return { page, id };
    }

    it("answers the agent's question in the page, and the loop goes on with it", async () => {
      const session = consoleSession([{ write: "a" }, { ask: QUESTION }, { write: "b" }, { complete: true }]);
      expect((await session.run()).code, "a headless run ends waiting").toBe(4);
      const { page, id } = await open(session);
      await statusShown(page, "waiting");
      await page.locator("#head .question", { hasText: `The agent asks: ${QUESTION}` }).waitFor();

      await page.getByLabel("answer").fill("Apache-2.0, with a NOTICE file");
      await page.getByRole("button", { name: "Answer" }).click();
      expect(await noticeOf(page)).toMatch(/^answered; /);
      await page.locator("#stream li", { hasText: "Apache-2.0, with a NOTICE file" }).first().waitFor();
      await statusShown(page, "completed");
      const shown = await session.hatloop(["show", id.slice(0, 8)]);
      expect(shown.stdout).toMatch(/^status +completed/m);
    });

    it("stops a running session (it pauses at the end of its iteration), then resumes it", async () => {
      const session = consoleSession([{ write: "a" }, { hold: "first" }, { write: "b" }, { hold: "second" }, { complete: true }]);
      const run = session.start();
      const { page } = await open(session);
      await page.locator("#stream li", { hasText: "echo go first" }).waitFor();
      await statusShown(page, "running");

      await page.getByRole("button", { name: "Stop" }).click();
      expect(await noticeOf(page)).toContain("stop requested");
      // The runner looks for stop requests every second: the iteration may end once it has seen this one.
      await run.printed("stop requested (hatloop stop)");
      session.release("first");
      await statusShown(page, "paused");
      await page.locator("#head", { hasText: "stopped by the user" }).waitFor();
      expect((await run.done).code).not.toBe(0);

      await page.reload(); // a fresh notice area for the next action's answer
      await page.getByRole("button", { name: "Resume" }).click();
      expect(await noticeOf(page)).toContain("resume");
      await page.locator("#stream li", { hasText: "echo go second" }).waitFor();
      await statusShown(page, "running");
      session.release("second");
      await statusShown(page, "completed");
    });

    it("raises the budget of a session paused on it, and the session goes on", async () => {
      const session = consoleSession([{ write: "a" }, { write: "b" }, { write: "c" }, { complete: true }]);
      const ran = await session.run(["--max-iterations", "2"]);
      expect(ran.code, ran.stderr).not.toBe(0);
      const { page } = await open(session);
      await statusShown(page, "paused");
      await page.getByText("iteration 2 / 2").waitFor();

      await page.getByLabel("more iterations").fill("5");
      await page.getByRole("button", { name: "Raise budget" }).click();
      expect(await noticeOf(page)).toMatch(/^budget now 7 iterations/);
      await statusShown(page, "completed");
      await page.getByText("iteration 4 / 7").waitFor();
    });
  },
);
