import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The README's test command without HATLOOP_TEST_DATABASE_URL: the Postgres tests are not left out
// but skipped, shown as skipped, and the summary is followed by how many and how to run them
// (the postgres tag in vitest.shared.ts, support/postgres-reporter.ts). Run by vitest with the
// repository's own configuration on two real files: a suite on both drivers and a fleet test.

const repo = fileURLToPath(new URL("../..", import.meta.url));
const FILES = ["db/test/redaction.test.ts", "apps/cli/test/fleet-pull-request-e2e.test.ts"];

describe("Postgres tests without a server", () => {
  it("are skipped, shown per file, and counted after the summary with how to run them", () => {
    const ran = spawnSync(process.execPath, [`${repo}node_modules/vitest/vitest.mjs`, "run", ...FILES], {
      cwd: repo,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" },
      encoding: "utf8",
    });
    const output = ran.stdout + ran.stderr;
    expect(ran.status, output).toBe(0);

    // Each file shows its skipped tests; the suite on both drivers skips as many as it runs.
    const perFile = (file: string) =>
      new RegExp(`${file.split("/").pop()!.replace(".", "\\.")} \\((\\d+) tests?(?: \\| (\\d+) skipped)?\\)`).exec(output);
    const both = perFile(FILES[0]!);
    expect(both, output).not.toBeNull();
    expect(Number(both![2])).toBe(Number(both![1]) / 2);
    const fleet = perFile(FILES[1]!);
    expect(fleet, output).not.toBeNull();
    expect(fleet![2]).toBe(fleet![1]);

    // Every skipped test is a Postgres one, and the line after the summary counts them all.
    const skipped = Number(/Tests +\d+ passed \| (\d+) skipped/.exec(output)?.[1]);
    expect(skipped).toBe(Number(both![2]) + Number(fleet![2]));
    expect(output).toContain(`\n ${skipped} Postgres tests skipped: set HATLOOP_TEST_DATABASE_URL=postgres://... to run them`);
  });
});
