import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { describe, expect, it } from "vitest";

// The guard of every test project (support/database-leaks.ts): a test file that leaves a test
// database on the HATLOOP_TEST_DATABASE_URL server fails, naming it, and the database is dropped.
// Checked on a file that forgets its drop(), run by vitest with the repository's shared config.

const server = process.env.HATLOOP_TEST_DATABASE_URL;
const repo = fileURLToPath(new URL("../..", import.meta.url));

async function databaseExists(name: string): Promise<boolean> {
  const admin = postgres(server!, { max: 1, onnotice: () => {} });
  try {
    return (await admin`select 1 from pg_database where datname = ${name}`).length === 1;
  } finally {
    await admin.end();
  }
}

describe("test databases left on the server", { tags: ["postgres"] }, () => {
  it("fail the test file that left them, by name, and are dropped", async () => {
    const root = mkdtempSync(join(tmpdir(), "hatloop-leaky-"));
    const named = join(root, "name");
    mkdirSync(join(root, "test"));
    writeFileSync(
      join(root, "vitest.config.ts"),
      `import { sharedConfig } from ${JSON.stringify(join(repo, "vitest.shared.ts"))};\nexport default sharedConfig();\n`,
    );
    writeFileSync(
      join(root, "test", "leaky.test.ts"),
      [
        `import { writeFileSync } from "node:fs";`,
        `import { it } from "vitest";`,
        `import { createTestDatabase } from ${JSON.stringify(join(repo, "db/src/testing.ts"))};`,
        `it("creates a database and forgets it", async () => {`,
        `  const database = await createTestDatabase();`,
        `  writeFileSync(${JSON.stringify(named)}, new URL(database.url).pathname.slice(1));`,
        `});`,
      ].join("\n"),
    );
    const ran = spawnSync(process.execPath, [join(repo, "node_modules/vitest/vitest.mjs"), "run", "--root", root], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, HATLOOP_TEST_DATABASE_URL: server, NO_COLOR: "1" },
      encoding: "utf8",
    });
    const output = ran.stdout + ran.stderr;
    const name = readFileSync(named, "utf8");

    expect(ran.status, output).toBe(1);
    expect(output).toContain(`this file left 1 test database on the server (${name}; dropped now)`);
    expect(await databaseExists(name)).toBe(false);
  });
});
