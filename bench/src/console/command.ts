import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type DbStore } from "@hatloop/db";
import { createTestDatabase } from "@hatloop/db/testing";
import { round } from "../util/stats.js";
import { stopWarmHolder } from "../startup/warm-holder.js";
import { launchBrowser } from "./browser.js";
import { measureEventLatency, openFollowing } from "./event-latency.js";
import { measureFleetPage } from "./fleet-page.js";
import { measurePageWeights } from "./page-weight.js";
import { consolePlan, type ConsolePlan } from "./plan.js";
import { rssMb } from "./process-usage.js";
import { renderConsole, type ConsoleJson, type LatencyRow } from "./report.js";
import { seedSessions } from "./seed.js";
import { startServe, type ServeProcess } from "./serve-process.js";

// `pnpm bench console`: the web console as a person gets it. `hatloop serve` (the built binary) is
// a process of its own over a database of the bench's own; the pages are opened in Chromium; events
// are appended through the store from this process, as a running loop writes them. Three parts:
// - event to an open session page, on Postgres and on the embedded database (held by the run, the
//   server going through it, and held by the server);
// - the sessions page over a large fleet with many pages open while events flow (Postgres when
//   given, else the embedded database);
// - what a first visit to each page downloads (scripts, style sheet, HTML, compressed as served).

interface Target {
  label: string;
  db: string;
  drop(): Promise<void>;
}

/** Who opens the database first: on the embedded one, the first holds it and the other goes through it. */
type Order = "run first" | "serve first";

export async function consoleCommand(
  options: { pg: string | null; quick: boolean; plan?: ConsolePlan },
  log: (line: string) => void,
): Promise<{ json: ConsoleJson; markdown: string }> {
  const started = Date.now();
  const loadStart = loadavg();
  const plan = options.plan ?? consolePlan(options.quick ? "quick" : "full");
  const root = mkdtempSync(join(tmpdir(), "hatloop-bench-console-"));
  const config = join(root, "none.json");
  writeFileSync(config, "{}\n");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env["PATH"],
    HOME: root,
    HATLOOP_HOME: join(root, "home"),
    HATLOOP_CONFIG: config,
    NO_COLOR: "1",
  };
  const postgres = async (): Promise<Target> => {
    process.env["HATLOOP_TEST_DATABASE_URL"] = options.pg!;
    const database = await createTestDatabase();
    return { label: "Postgres", db: database.url, drop: () => database.drop() };
  };
  const embedded = (name: string): Target => {
    const dir = join(root, name);
    return { label: "embedded", db: dir, drop: () => stopWarmHolder(dir) };
  };
  const browser = await launchBrowser();
  try {
    const latency: LatencyRow[] = [];
    const runs: Array<[string, () => Promise<Target>, Order]> = [
      ...(options.pg ? [["Postgres (LISTEN/NOTIFY)", postgres, "run first"] as [string, () => Promise<Target>, Order]] : []),
      ["embedded, held by the run (the server goes through it)", async () => embedded("latency-run"), "run first"],
      ["embedded, held by the server", async () => embedded("latency-serve"), "serve first"],
    ];
    for (const [database, target, order] of runs) {
      const row = await withServe(await target(), env, order, async (store, serve) => {
        const seeded = await seedSessions(store, plan.latency.sessions, 1);
        const page = await openFollowing(browser, serve, store, seeded.running[0]!);
        try {
          return await measureEventLatency(page, store, seeded.running[0]!, plan.latency);
        } finally {
          await page.context().close();
        }
      });
      latency.push({ database, ...row });
      log(`console: ${database}: event to page ${row.medianMs} ms median, ${row.p95Ms} ms p95 (${row.arrived}/${row.events})`);
    }
    const fleetTarget = options.pg ? await postgres() : embedded("fleet");
    const { fleet, pages } = await withServe(fleetTarget, env, "run first", async (store, serve) => {
      const t = Date.now();
      const seeded = await seedSessions(store, plan.fleet.sessions, plan.fleet.running);
      log(`console: ${plan.fleet.sessions} sessions seeded in ${((Date.now() - t) / 1000).toFixed(1)} s`);
      const figures = await measureFleetPage(browser, serve, store, seeded, plan.fleet, rssMb(serve.pid));
      log(
        `console: sessions page: first load ${figures.firstLoadIdle.serverMedianMs} ms server, ${figures.firstLoadIdle.domContentLoadedMedianMs} ms DOMContentLoaded; row update ${figures.rowUpdate.browserMedianMs} ms; server ${figures.server.cpuPct}% CPU, ${figures.server.rssMaxMb} MiB`,
      );
      const weights = await measurePageWeights(browser, serve, seeded.running.at(-1)!);
      return {
        fleet: {
          database: fleetTarget.label,
          sessions: plan.fleet.sessions,
          running: plan.fleet.running,
          pages: plan.fleet.pages,
          ...figures,
        },
        pages: weights,
      };
    });
    const json: ConsoleJson = {
      bench: "console",
      version: 1,
      plan,
      latency,
      fleet,
      pages,
      run: {
        durationMs: Date.now() - started,
        node: process.version,
        chromium: browser.version(),
        cores: cpus().length,
        loadAverage: { start: loadStart.map((n) => round(n, 2)), end: loadavg().map((n) => round(n, 2)) },
      },
    };
    return { json, markdown: renderConsole(json) };
  } finally {
    await browser.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The server and this process's store over one database, opened in `order`, for `work`; everything closed and the database dropped afterwards. */
async function withServe<T>(
  target: Target,
  env: NodeJS.ProcessEnv,
  order: Order,
  work: (store: DbStore, serve: ServeProcess) => Promise<T>,
): Promise<T> {
  let store: DbStore | null = null;
  let serve: ServeProcess | null = null;
  try {
    if (order === "run first") {
      store = await openStore({ url: target.db });
      serve = await startServe(target.db, env);
    } else {
      serve = await startServe(target.db, env);
      store = await openStore({ url: target.db });
    }
    return await work(store, serve);
  } finally {
    await serve?.stop();
    await store?.close();
    await target.drop();
  }
}
