import { describeOutage, type OutageReport } from "@hatloop/db";

// Where the database's outage reports go. By default a line on stderr; while a session runs, its
// view and its event log take them (session/drive.ts), so the TUI shows them and `logs` keeps them.

type Reporter = (report: OutageReport) => void;

const toStderr: Reporter = (report) => process.stderr.write(`hatloop: ${describeOutage(report)}\n`);
let current: Reporter = toStderr;

/** Passed to openStore as onOutage. */
export function reportOutage(report: OutageReport): void {
  current(report);
}

/** Sends reports to `reporter` until the returned function is called. */
export function routeOutages(reporter: Reporter): () => void {
  const previous = current;
  current = reporter;
  return () => {
    current = previous;
  };
}
