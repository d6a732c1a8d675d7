import { randomBytes } from "node:crypto";
import { afterAll } from "vitest";

// A setup file of every test project (vitest.shared.ts): a test database created on the
// HATLOOP_TEST_DATABASE_URL server (createTestDatabase) is dropped by the test file that created it.
// The file's databases carry a prefix of its own; after its last test the server is asked which are
// still there. One left behind fails the file, named, and is dropped, so a shared server does not
// fill up with a database per run.

const server = process.env.HATLOOP_TEST_DATABASE_URL;

if (server) {
  const prefix = `hatloop_t_${randomBytes(4).toString("hex")}`;
  // Not a HATLOOP_ name: those are configuration, and a hatloop started by a test inherits it.
  process.env.TEST_DATABASE_PREFIX = prefix;

  afterAll(async () => {
    const left = await dropLeftBehind(server, prefix);
    if (left.length > 0) {
      throw new Error(
        `this file left ${left.length} test database${left.length === 1 ? "" : "s"} on the server (${left.join(", ")}; dropped now): drop each at the end of its test, with createTestDatabase's drop()`,
      );
    }
  });
}

/** The databases whose names start with `prefix` and an underscore, each dropped; returns their names. */
async function dropLeftBehind(url: string, prefix: string): Promise<string[]> {
  // Imported only when there is a server to ask: most test files never touch Postgres.
  const { default: postgres } = await import("postgres");
  const admin = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    const rows = await admin<
      Array<{ datname: string }>
    >`select datname from pg_database where starts_with(datname, ${`${prefix}_`}) order by datname`;
    const names = rows.map((row) => row.datname);
    for (const name of names) await admin.unsafe(`drop database if exists "${name}" with (force)`);
    return names;
  } finally {
    await admin.end({ timeout: 5 });
  }
}
