import { defineConfig } from "vitest/config";

// The whole suite in one run (`pnpm test:all`, which `pnpm test` runs beside the lints): the test
// files of every package share the machine, so a process test waiting on a lease, a hand-over or a
// database outage leaves its core to another package's tests. Each project's workers are set in
// vitest.shared.ts.
export default defineConfig({
  test: {
    projects: ["apps/cli", "packages/*", "db", "bench"],
    // After the summary: how many Postgres tests were skipped for want of HATLOOP_TEST_DATABASE_URL.
    reporters: ["default", "./db/test/support/postgres-reporter.ts"],
  },
});
