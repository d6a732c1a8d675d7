import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";

// Generated SQL migrations live beside src/ and dist/, so this resolves from either.
export const migrationsFolder = fileURLToPath(new URL("../migrations", import.meta.url));

// Any fixed number: serialises concurrent migrators on one Postgres server.
const MIGRATION_LOCK = 0x6861746c;

export async function migratePgliteDb(pg: PGlite): Promise<void> {
  await migratePglite(drizzlePglite({ client: pg }), { migrationsFolder });
}

/** Applies pending migrations on Postgres under an advisory lock; idempotent. */
export async function migratePostgresDb(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres({ client: sql }), { migrationsFolder });
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
