import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { CONNECTION_OPTIONS } from "./postgres-options.js";

// Generated SQL migrations live beside src/ and dist/, so this resolves from either.
export const migrationsFolder = fileURLToPath(new URL("../migrations", import.meta.url));

// Any fixed number: serialises concurrent migrators on one Postgres server.
const MIGRATION_LOCK = 0x6861746c;

/**
 * The newest migration's timestamp, as drizzle records it in drizzle.__drizzle_migrations.created_at.
 * A database whose newest record is this one is current: every start checks that with one query and
 * loads drizzle's migrator (and reads every migration file) only when something is pending.
 */
function newestMigration(): number {
  const journal = JSON.parse(readFileSync(`${migrationsFolder}/meta/_journal.json`, "utf8")) as { entries: Array<{ when: number }> };
  return Math.max(...journal.entries.map((e) => e.when));
}

const PRESENT = "select to_regclass('drizzle.__drizzle_migrations') is not null as present";
const NEWEST_APPLIED = "select max(created_at)::text as newest from drizzle.__drizzle_migrations";

export async function migratePgliteDb(pg: PGlite): Promise<void> {
  const present = (await pg.query<{ present: boolean }>(PRESENT)).rows[0]?.present;
  if (present && Number((await pg.query<{ newest: string | null }>(NEWEST_APPLIED)).rows[0]?.newest) === newestMigration()) return;
  const [{ drizzle }, { migrate }] = await Promise.all([import("drizzle-orm/pglite"), import("drizzle-orm/pglite/migrator")]);
  await migrate(drizzle({ client: pg }), { migrationsFolder });
}

/** Applies pending migrations on Postgres under an advisory lock; idempotent. */
export async function migratePostgresDb(url: string): Promise<void> {
  const { default: postgres } = await import("postgres");
  const sql = postgres(url, { ...CONNECTION_OPTIONS, max: 1, connect_timeout: 10 });
  try {
    const [found] = await sql.unsafe<Array<{ present: boolean }>>(PRESENT);
    if (found?.present && Number((await sql.unsafe<Array<{ newest: string | null }>>(NEWEST_APPLIED))[0]?.newest) === newestMigration())
      return;
    const [{ drizzle }, { migrate }] = await Promise.all([import("drizzle-orm/postgres-js"), import("drizzle-orm/postgres-js/migrator")]);
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle({ client: sql }), { migrationsFolder });
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
