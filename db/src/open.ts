import { resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzleProxy } from "drizzle-orm/pg-proxy";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Db } from "./db.js";
import { queryPglite } from "./embedded/pglite-query.js";
import { EmbeddedRouter } from "./embedded/router.js";
import { migratePgliteDb, migratePostgresDb } from "./migrate.js";
import { defaultPgliteDir } from "./paths.js";
import { schema } from "./schema.js";

export interface Database {
  db: Db;
  driver: "pglite" | "postgres";
  /** A data directory, `memory://`, or a Postgres URL with the password hidden. */
  location: string;
  /** For the embedded database: whether this process holds the directory or goes through its holder. */
  role(): "owner" | "client" | "server" | "closed";
  /** LISTEN on a channel (Postgres only); resolves with the function that stops listening. */
  listen?(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://... , memory:// , a directory (or file:DIR). Default: DATABASE_URL, else the data dir. */
  url?: string;
  env?: NodeJS.ProcessEnv;
  connectTimeoutMs?: number;
  /** Test templates: start an in-memory database from a dump instead of an empty one. */
  loadDataDir?: Blob;
}

export class DatabaseError extends Error {}

/** Opens the database and applies pending migrations. */
export async function openDb(options: OpenOptions = {}): Promise<Database> {
  const env = options.env ?? process.env;
  const url = options.url ?? env.DATABASE_URL ?? defaultPgliteDir(env);
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url);
  if (url === "memory://") return openMemory(options.loadDataDir);
  return openEmbedded(resolve(url.replace(/^file:(\/\/)?/, "")), options.connectTimeoutMs);
}

async function openPostgres(url: string): Promise<Database> {
  const location = url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
  try {
    await migratePostgresDb(url);
  } catch (error) {
    throw new DatabaseError(`cannot use the database at ${location}: ${(error as Error).message}`);
  }
  const client = postgres(url, { max: 10, onnotice: () => {}, connect_timeout: 10 });
  let open = true;
  return {
    db: drizzlePostgres({ client, schema, casing: "snake_case" }),
    driver: "postgres",
    location,
    role: () => (open ? "server" : "closed"),
    // postgres.js keeps one dedicated connection for all LISTENs of this client.
    listen: async (channel, onPayload) => {
      const { unlisten } = await client.listen(channel, onPayload);
      return unlisten;
    },
    close: async () => {
      open = false;
      await client.end({ timeout: 5 });
    },
  };
}

async function openMemory(loadDataDir?: Blob): Promise<Database> {
  const pg = await PGlite.create(loadDataDir ? { loadDataDir } : undefined);
  await migratePgliteDb(pg);
  let open = true;
  const db = drizzleProxy(
    async (sql, params, method) => ({ rows: await queryPglite(pg, sql, params, method === "all" ? "array" : "object") }),
    { schema, casing: "snake_case" },
  );
  return {
    db,
    driver: "pglite",
    location: "memory://",
    role: () => (open ? "owner" : "closed"),
    close: async () => {
      open = false;
      await pg.close();
    },
  };
}

async function openEmbedded(dataDir: string, connectTimeoutMs?: number): Promise<Database> {
  const router = new EmbeddedRouter({ dataDir, onOpen: migratePgliteDb, connectTimeoutMs });
  try {
    // Connect now, so a database that cannot be opened fails here with one clear message.
    await router.query("select 1", [], "array");
  } catch (error) {
    await router.close();
    throw new DatabaseError(`cannot open the embedded database at ${dataDir}: ${(error as Error).message}`);
  }
  const db = drizzleProxy(
    async (sql, params, method) => ({ rows: await router.query(sql, params, method === "all" ? "array" : "object") }),
    { schema, casing: "snake_case" },
  );
  return { db, driver: "pglite", location: dataDir, role: () => router.role, close: () => router.close() };
}
