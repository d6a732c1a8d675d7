import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { errorMessage } from "@hatloop/context";
import { startPglite } from "./embedded/pglite-start.js";
import { readSeed, writeSeed } from "./embedded/seed.js";
import { migratedTemplate } from "./postgres-template.js";
import postgres from "postgres";
import { openStore, type DbStore } from "./store.js";

// Isolated databases for tests. PGlite: every store starts from a migrated template dump (0.5 s instead
// of 2.5 s for initdb). Postgres (HATLOOP_TEST_DATABASE_URL): every store gets a database of its own,
// copied from a migrated template database and dropped on close, so suites can run in parallel and
// twice in a row.

export type TestDriver = "pglite" | "postgres";

export async function openTestStore(driver: TestDriver = "pglite"): Promise<DbStore> {
  if (driver === "pglite") return openStore({ url: "memory://", loadDataDir: await pgliteTemplate() });
  const database = await createTestDatabase({ migrated: true });
  const store = await openStore({ url: database.url });
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await database.drop();
  };
  return store;
}

/**
 * A new Postgres database on the HATLOOP_TEST_DATABASE_URL server; `drop()` removes it. Empty, or with
 * `migrated`, a copy of a migrated template (postgres-template.ts): 0.15 s instead of 1.5-1.9 s of
 * migrations, for a test that is not about a first start on an empty database.
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.HATLOOP_TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("HATLOOP_TEST_DATABASE_URL is not set");
  const name = `${testDatabasePrefix()}_${randomBytes(5).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    const template = options.migrated ? ` template ${await migratedTemplate(adminUrl)}` : "";
    await admin.unsafe(`create database ${name}${template}`);
  } catch (error) {
    throw new Error(`HATLOOP_TEST_DATABASE_URL is set but Postgres is unusable (${adminUrl}): ${errorMessage(error)}`, {
      cause: error,
    });
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`).finally(() => dropper.end({ timeout: 5 }));
    },
  };
}

/**
 * What a test database's name starts with: `hatloop_t`, or the prefix of the test file that creates it
 * (TEST_DATABASE_PREFIX, set by db/test/support/database-leaks.ts), so that what a file leaves
 * on the server can be found and named after its last test.
 */
function testDatabasePrefix(): string {
  const prefix = process.env.TEST_DATABASE_PREFIX || "hatloop_t";
  if (!/^[a-z][a-z0-9_]{0,40}$/.test(prefix)) throw new Error(`TEST_DATABASE_PREFIX is not a plain lower-case name: ${prefix}`);
  return prefix;
}

let template: Promise<Blob> | null = null;

/** A dump of a freshly migrated database: the seed (seed.ts), built into the temporary directory when the build has none. */
export function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => readSeed() ?? (await writeSeed(() => startPglite(undefined, { fromSeed: false }), tmpdir())))();
  return template;
}

export { scratchPostgresBinDir, startScratchPostgres, type ScratchPostgres } from "./testing-server.js";
