import { describe } from "vitest";
import type { TestDriver } from "../../src/testing.js";

type Body = (driver: TestDriver) => void;

/**
 * A suite per database driver (`%s` in the name is the driver), Postgres too: its suite is tagged
 * postgres, so without HATLOOP_TEST_DATABASE_URL it is skipped, shown and counted as skipped
 * (vitest.shared.ts), never left out. `skipIf`: skip every driver's suite.
 */
export function describeOnDrivers(name: string, ...args: [Body] | [{ skipIf?: boolean }, Body]): void {
  const [{ skipIf = false }, body] = args.length === 1 ? [{}, args[0]] : args;
  for (const driver of ["pglite", "postgres"] as const) {
    describe.skipIf(skipIf)(name.replace("%s", driver), { tags: driver === "postgres" ? ["postgres"] : [] }, () => body(driver));
  }
}
