import type { Reporter, TestModule } from "vitest/node";

// A reporter beside vitest's own (vitest.config.ts, vitest.shared.ts): after the summary, one line
// that says how many tests tagged postgres were skipped for want of HATLOOP_TEST_DATABASE_URL and how
// to run them, so a run without a server never looks like the whole suite.

const HOW = "set HATLOOP_TEST_DATABASE_URL=postgres://... to run them (CONTRIBUTING.md, 'Database tests')";

/** The line for a run: null when no postgres test was skipped. */
export function skippedPostgresLine(modules: ReadonlyArray<TestModule>): string | null {
  let skipped = 0;
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      if (test.tags.includes("postgres") && test.result().state === "skipped") skipped++;
    }
  }
  if (skipped === 0) return null;
  return `${skipped} Postgres test${skipped === 1 ? "" : "s"} skipped: ${HOW}`;
}

export default class PostgresReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const line = skippedPostgresLine(modules);
    if (line !== null) process.stdout.write(`\n ${line}\n\n`);
  }
}
