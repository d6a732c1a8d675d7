import type { FleetPagePlan } from "./fleet-page.js";

// How much the console bench does: the full run the docs quote, a quick smoke run, and the tiny one
// its test runs (enough of everything to check the harness, nothing to time).

export interface ConsolePlan {
  latency: { sessions: number; events: number; intervalMs: number };
  fleet: FleetPagePlan & { sessions: number; running: number };
}

export function consolePlan(size: "full" | "quick" | "tiny"): ConsolePlan {
  switch (size) {
    case "full":
      return {
        latency: { sessions: 10, events: 200, intervalMs: 50 },
        fleet: {
          sessions: 1_000,
          running: 100,
          pages: 20,
          firstLoads: 5,
          rowUpdates: 50,
          rowIntervalMs: 200,
          filterChanges: 10,
          loadAppendsPerSecond: 20,
          loadBatch: 5,
        },
      };
    case "quick":
      return {
        latency: { sessions: 5, events: 50, intervalMs: 50 },
        fleet: {
          sessions: 200,
          running: 40,
          pages: 5,
          firstLoads: 2,
          rowUpdates: 10,
          rowIntervalMs: 200,
          filterChanges: 4,
          loadAppendsPerSecond: 20,
          loadBatch: 5,
        },
      };
    case "tiny":
      return {
        latency: { sessions: 3, events: 10, intervalMs: 20 },
        fleet: {
          sessions: 20,
          running: 6,
          pages: 2,
          firstLoads: 1,
          rowUpdates: 3,
          rowIntervalMs: 100,
          filterChanges: 2,
          loadAppendsPerSecond: 5,
          loadBatch: 2,
        },
      };
  }
}
