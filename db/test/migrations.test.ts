import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { migrationsFolder } from "../src/migrate.js";
import { openDb, type Database } from "../src/open.js";
import { DatabaseUnavailableError } from "../src/resilience/outage.js";
import { createTestDatabase } from "../src/testing.js";

const journal = JSON.parse(readFileSync(join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
const TABLES = [
  "checklist_items",
  "checkpoints",
  "events",
  "fleet_sessions",
  "grades",
  "memories",
  "messages",
  "sessions",
  "workers",
  "write_receipts",
];

async function tablesAndMigrations(database: Database) {
  const tables = (await database.db.execute(
    "select table_name from information_schema.tables where table_schema = 'public' order by table_name",
  )) as unknown as Array<{ table_name: string }>;
  const applied = (await database.db.execute("select hash from drizzle.__drizzle_migrations")) as unknown as unknown[];
  return { tables: [...tables].map((t) => t.table_name), applied: [...applied].length };
}

describe("migrations from an empty database", () => {
  it("pglite: applies every migration once, and again is a no-op", async () => {
    const database = await openDb({ url: "memory://" });
    try {
      expect(await tablesAndMigrations(database)).toEqual({ tables: TABLES, applied: journal.entries.length });
    } finally {
      await database.close();
    }
  });

  it("postgres: applies every migration once, and again is a no-op", { tags: ["postgres"] }, async () => {
    const empty = await createTestDatabase();
    try {
      for (let round = 0; round < 2; round++) {
        const database = await openDb({ url: empty.url });
        try {
          expect(await tablesAndMigrations(database)).toEqual({ tables: TABLES, applied: journal.entries.length });
        } finally {
          await database.close();
        }
      }
    } finally {
      await empty.drop();
    }
  });

  it(
    "postgres: a migrated test database is a current copy of the template, which takes no connections",
    { tags: ["postgres"] },
    async () => {
      const migrated = await createTestDatabase({ migrated: true });
      try {
        const database = await openDb({ url: migrated.url });
        try {
          expect(await tablesAndMigrations(database)).toEqual({ tables: TABLES, applied: journal.entries.length });
          const templates = (await database.db.execute(
            "select datallowconn from pg_database where datistemplate and datname like 'hatloop_template_%'",
          )) as unknown as Array<{ datallowconn: boolean }>;
          expect([...templates].length).toBeGreaterThan(0);
          expect([...templates].every((t) => !t.datallowconn)).toBe(true);
        } finally {
          await database.close();
        }
      } finally {
        await migrated.drop();
      }
    },
  );

  it("names an unreachable Postgres in one line, with the cause and without the password", async () => {
    const opening = openDb({ url: "postgres://u:secret@127.0.0.1:1/x" });
    await expect(opening).rejects.toThrow(DatabaseUnavailableError);
    await expect(opening).rejects.toThrow(/^database unreachable at 127\.0\.0\.1:1 \(connection refused\)$/);
  });
});
