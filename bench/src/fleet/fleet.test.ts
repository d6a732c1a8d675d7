import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../cli.js";
import { BENCH_SETTINGS, fleetPlan, renderFleet, summarizeFleet, type RawFleet } from "./command.js";

// The fleet bench's harness: argument handling through main, and the shape of its results. The
// measurements themselves (real processes, minutes) are `pnpm bench fleet`'s; nothing here is timed.

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("pnpm bench fleet", () => {
  it("without Postgres: one line on stderr naming --pg, exit code 2, nothing on stdout", async () => {
    vi.stubEnv("HATLOOP_TEST_DATABASE_URL", "");
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (out.push(String(chunk)), true));
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (err.push(String(chunk)), true));
    expect(await main(["fleet", "--quick"])).toBe(2);
    expect(err).toEqual(["bench: fleet needs a Postgres server: pass --pg postgres://... or set HATLOOP_TEST_DATABASE_URL\n"]);
    expect(out).toEqual([]);
  });

  it("plans 1, 2 and 4 workers, fewer runs when quick", () => {
    expect(fleetPlan(true).workerCounts).toEqual([1, 2, 4]);
    expect(fleetPlan(false).workerCounts).toEqual([1, 2, 4]);
    expect(fleetPlan(true).throughputRuns).toBeLessThanOrEqual(fleetPlan(false).throughputRuns);
    expect(fleetPlan(false).takeoverRuns).toBeGreaterThan(1);
  });

  it("summarises the runs per worker count as medians, side by side in the Markdown", () => {
    const plan = { ...fleetPlan(false), throughputRuns: 3, takeoverRuns: 3 };
    const raw: RawFleet[] = [1, 2, 4].map((workers) => ({
      workers,
      throughput: [10, 30, 20].map((perMin) => ({
        sessions: 12,
        windowMs: (12 / perMin) * 60_000 * workers,
        sessionsPerMin: perMin * workers,
        perWorker: Array.from({ length: workers }, () => 12 / workers),
      })),
      takeoverMs: [12_400.4, 11_000, 15_000],
    }));
    const json = summarizeFleet(plan, BENCH_SETTINGS, raw, { durationMs: 1, node: "v22.0.0" });
    expect(json).toMatchObject({ bench: "fleet", version: 1, plan, settings: BENCH_SETTINGS });
    expect(json.rows.map((r) => r.workers)).toEqual([1, 2, 4]);
    expect(json.rows.map((r) => r.throughput.sessionsPerMinMedian)).toEqual([20, 40, 80]);
    expect(json.rows[0]!.throughput.runs).toHaveLength(3);
    expect(json.rows[0]!.takeover).toEqual({ medianMs: 12_400, runsMs: [12_400, 11_000, 15_000] });
    // The JSON round-trips (it is what fleet-latest.json holds).
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    const md = renderFleet(json);
    expect(md).toContain("## Fleet bench");
    expect(md).toContain("| | 1 worker | 2 workers | 4 workers |");
    expect(md).toMatch(/\| throughput, sessions\/min .*\| 20\.0 \| 40\.0 \| 80\.0 \|/);
    expect(md).toMatch(/\| takeover after SIGKILL .*\| 12\.4 s \| 12\.4 s \| 12\.4 s \|/);
  });
});
