import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Tests read workspace packages from source through the "@hatloop/source" export condition,
// so a unit test never runs against a stale build.
//
// Tests assert behaviour, not speed: timing claims belong in `pnpm bench`. No test or hook carries a
// limit of its own; this one generous ceiling only makes sure a genuinely hung test still ends, on a
// loaded 2-core machine as on a fast one.
const HUNG_MS = 10 * 60_000;

export function sharedConfig(options: { isolate?: boolean } = {}) {
  return defineConfig({
    ssr: { resolve: { conditions: ["@hatloop/source"] } },
    resolve: { conditions: ["@hatloop/source"] },
    test: {
      include: ["src/**/*.test.ts", "src/**/*.test.tsx", "test/**/*.test.ts", "test/**/*.test.tsx"],
      testTimeout: HUNG_MS,
      hookTimeout: HUNG_MS,
      // Four on two cores: the suite is bound by CPU (the real processes the CLI's end-to-end tests
      // start), but a test that waits on a lease or an outage leaves its core to another file's work:
      // the whole suite (vitest.config.ts) took 269 s with four, 341 s with two (docs/benchmarks.md#the-test-suite).
      maxWorkers: 4,
      // A worker's test files share its module cache, so a package's TypeScript is imported once per
      // worker, not once per file: the unit-test packages took 56 s of CPU instead of 88 s. Files that
      // change process-wide state put it back; env stubs are undone after every test.
      isolate: options.isolate ?? false,
      unstubEnvs: true,
      env: { FORCE_COLOR: "0" },
      // A test tagged postgres needs the Postgres server HATLOOP_TEST_DATABASE_URL names: without one it is
      // skipped, shown as skipped, and counted after the summary (db/test/support/postgres-reporter.ts).
      tags: [
        {
          name: "postgres",
          description: "needs a Postgres server: HATLOOP_TEST_DATABASE_URL",
          skip: !process.env.HATLOOP_TEST_DATABASE_URL,
        },
      ],
      // A test file that leaves a test database on the HATLOOP_TEST_DATABASE_URL server fails.
      setupFiles: [fileURLToPath(new URL("db/test/support/database-leaks.ts", import.meta.url))],
      // A package's own run (vitest.config.ts sets the whole suite's).
      reporters: ["default", fileURLToPath(new URL("db/test/support/postgres-reporter.ts", import.meta.url))],
    },
  });
}
