import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { requireOrSkip } from "@hatloop/core/testing";
import { hasChromium, launchBrowser, loggedIn, markWindow, startServe } from "./support/console.js";
import { startWorker, submit, withFleet } from "./support/fleet.js";

// The console over the fleet's Postgres, in a real browser: two tasks submitted, two workers taking
// one each; the sessions page shows both running with the worker that runs it, the workers page both
// workers alive with their session, and both pages follow the sessions to completed without a reload.
// Each session holds in a command that waits for a gate file the test creates (no clock).

/** A session that writes a note, holds until `gate` exists, then completes. */
function heldScenario(root: string, name: string, gate: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const turns = [
    { text: "Writing the note.", tools: [{ name: "write_file", input: { path: "notes/a.txt", content: "a\n" } }] },
    { text: "Waiting.", tools: [{ name: "run_command", input: { command: `while [ ! -e '${gate}' ]; do sleep 0.05; done; echo go` } }] },
    { text: "Done.", tools: [{ name: "task_complete", input: { summary: "note written" } }] },
  ];
  const path = join(dir, "scenario.jsonl");
  writeFileSync(path, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
  return path;
}

const badgeOf = (page: Page, id: string) => page.locator(`#s-${id} .badge`);

describe.runIf(requireOrSkip(hasChromium(), "Chromium (/usr/bin/chromium: apt-get install chromium)"))(
  "the console over the fleet (Postgres, worker processes, a bare remote)",
  { tags: ["postgres"] },
  () => {
    it("lists both submitted sessions with their workers, both workers alive, and follows them to completed", async () => {
      await withFleet(
        async ({ root, remote, env, workers }) => {
          const gates = { one: join(root, "gate-one"), two: join(root, "gate-two") };
          const ids = [
            await submit(env, remote, heldScenario(root, "one", gates.one), "the first task"),
            await submit(env, remote, heldScenario(root, "two", gates.two), "the second task"),
          ];
          const served = await startServe(env);
          const browser = await launchBrowser();
          try {
            const page = await loggedIn(browser, served);
            for (const id of ids) await badgeOf(page, id).filter({ hasText: "queued" }).waitFor();
            const samePage = await markWindow(page);

            workers.push(startWorker("w-a", env), startWorker("w-b", env));
            for (const id of ids)
              await badgeOf(page, id)
                .filter({ hasText: /^running$/ })
                .waitFor();
            // One slot each: each worker runs one of the two.
            await page.waitForFunction(
              (sels) =>
                sels
                  .map((s) => document.querySelector(s)?.textContent)
                  .sort()
                  .join() === "w-a,w-b",
              ids.map((id) => `#s-${id} td:nth-child(3)`),
            );
            expect(await samePage(), "rows updated in place").toBe(true);

            const workersPage = await loggedIn(browser, served);
            await workersPage.goto(`${served.base}/workers`);
            for (const name of ["w-a", "w-b"]) {
              const row = workersPage.locator(`#w-${name}`);
              await row.locator(".badge", { hasText: "alive" }).waitFor();
              await row.locator("td.num", { hasText: "1 / 1" }).first().waitFor();
            }
            const running = await workersPage.locator("#fleet tbody a").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
            expect(running.sort()).toEqual(ids.map((id) => `/sessions/${id}`).sort());

            for (const gate of Object.values(gates)) if (!existsSync(gate)) writeFileSync(gate, "");
            for (const id of ids) await badgeOf(page, id).filter({ hasText: "completed" }).waitFor();
            await workersPage.locator("#w-w-a td.num", { hasText: "0 / 1" }).first().waitFor();
            expect(await samePage(), "followed to the end without a reload").toBe(true);
          } finally {
            for (const gate of Object.values(gates)) if (!existsSync(gate)) writeFileSync(gate, "");
            await browser.close();
            await served.stop();
          }
        },
        { HATLOOP_TOOLS__COMMAND_TIMEOUT: "30m" },
      );
    });
  },
);
