import { describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { binaryBuilt } from "../fleet/processes.js";
import { chromiumInstalled } from "./browser.js";
import { consoleCommand } from "./command.js";
import { latencyFigures } from "./event-latency.js";
import { consolePlan } from "./plan.js";

// The console bench's harness at a tiny size: the built `hatloop serve`, Chromium, the embedded
// database (and Postgres when HATLOOP_TEST_DATABASE_URL names one). What is checked is that every
// measured event and row update reached the page and the results have their shape; the timings
// themselves are `pnpm bench console`'s, never asserted here.

// Skipped on a machine without them; under CI their absence fails the run.
const ready = requireOrSkip(
  binaryBuilt() && chromiumInstalled(),
  "the built binary and Chromium (/usr/bin/chromium: apt-get install chromium)",
);
const pg = process.env["HATLOOP_TEST_DATABASE_URL"] || null;

describe("pnpm bench console", () => {
  it("pairs each event with its arrival; one that never arrived is counted, not timed", () => {
    const sent = [10, 20, 30].map((calledAt) => ({ calledAt, storedAt: calledAt + 2 }));
    const figures = latencyFigures(sent, [15, undefined, 40]);
    expect(figures).toMatchObject({ events: 3, arrived: 2, medianMs: 5, maxMs: 10, fromStoredMedianMs: 3, appendMedianMs: 2 });
  });

  it.skipIf(!ready)(
    "at a tiny size: every event reaches the session page, every row update every open page; each page's weight is measured",
    async () => {
      const plan = consolePlan("tiny");
      const { json, markdown } = await consoleCommand({ pg, quick: true, plan }, () => {});
      expect(json).toMatchObject({ bench: "console", version: 1, plan });
      expect(json.latency.map((r) => r.database)).toHaveLength(pg ? 3 : 2);
      for (const row of json.latency) expect(row).toMatchObject({ events: plan.latency.events, arrived: plan.latency.events });
      const { fleet } = json;
      expect(fleet).toMatchObject({ sessions: plan.fleet.sessions, pages: plan.fleet.pages, database: pg ? "Postgres" : "embedded" });
      expect(fleet.firstLoadIdle.rows).toBe(plan.fleet.sessions);
      expect(fleet.rowUpdate).toMatchObject({
        updates: plan.fleet.rowUpdates,
        arrivedInBrowser: plan.fleet.rowUpdates,
        allPagesArrived: plan.fleet.rowUpdates,
      });
      expect(fleet.filterChange.changes).toBe(plan.fleet.filterChanges);
      expect(fleet.load.eventsAppended).toBeGreaterThan(0);
      expect(fleet.server.rssMaxMb).toBeGreaterThan(0);
      expect(json.pages.map((p) => [p.page, p.scripts])).toEqual([
        ["sessions", 2],
        ["session", 2],
        ["workers", 2],
        ["login", 0],
      ]);
      for (const page of json.pages) expect(page.htmlKb).toBeGreaterThan(0);
      expect(json.run.loadAverage.start).toHaveLength(3);
      expect(JSON.parse(JSON.stringify(json))).toEqual(json);
      expect(markdown).toContain("## Console bench");
    },
    180_000,
  );
});
