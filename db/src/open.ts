import { getTableName } from "drizzle-orm";
import { errorMessage } from "@hatloop/context";
import { drizzleOver, type Db } from "./db.js";
import { findDamage } from "./embedded/damage.js";
import { queryPglite } from "./embedded/pglite-query.js";
import { EmbeddedRouter } from "./embedded/router.js";
import { configuredLocation, DatabaseError, displayLocation, ensureDataDir } from "./location.js";
import { migratePgliteDb, migratePostgresDb } from "./migrate.js";
import { connectionFailure } from "./resilience/classify.js";
import { DatabaseUnavailableError, OutageMonitor, type OutageReport } from "./resilience/outage.js";
import { PRUNE_RECEIPTS } from "./resilience/receipts.js";
import { resilientQuery } from "./resilience/resilient-query.js";
import { schema } from "./schema.js";

export interface Database {
  db: Db;
  driver: "pglite" | "postgres";
  /** A data directory, `memory://`, or a Postgres URL with the password hidden. */
  location: string;
  /** For the embedded database: whether this process holds the directory or goes through its holder. */
  role(): "owner" | "client" | "server" | "closed";
  /**
   * LISTEN on a channel (Postgres, and the embedded database through its holder); resolves with the
   * function that stops listening. `null`: a notification may have been missed (the embedded
   * database changed hands), look again.
   */
  listen?(channel: string, onPayload: (payload: string | null) => void): Promise<() => Promise<void>>;
  /**
   * The embedded database's damage check (`hatloop db check`): what is damaged, in words. `deep` when
   * this process holds the directory and could also read every table whole.
   */
  checkDamage?(): Promise<{ findings: string[]; deep: boolean }>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://... , memory:// , a directory (or file:DIR). Default: DATABASE_URL, else the data dir. */
  url?: string;
  env?: NodeJS.ProcessEnv;
  connectTimeoutMs?: number;
  /** How long an unreachable database is waited for before queries fail (database.outageTimeout). */
  outageTimeoutMs?: number;
  /** A Postgres query with no answer for this long counts as a connection failure (database.queryTimeout). */
  queryTimeoutMs?: number;
  /** Told when the database becomes unreachable, and when it answers again. */
  onOutage?: (report: OutageReport) => void;
  /** Open a damaged embedded database anyway, to report on it (`hatloop db check`). */
  allowDamaged?: boolean;
  /**
   * The embedded database, when this process held it: on close, hand it to a warm holder that stays
   * this long after its last client leaves (see embedded/warm-holder.ts). 0 or unset: no holder is left.
   */
  lingerMs?: number;
  /** Test templates: start an in-memory database from a dump instead of an empty one. */
  loadDataDir?: Blob;
}

export const DEFAULT_OUTAGE_TIMEOUT_MS = 5 * 60_000;
export const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

/** Opens the database and applies pending migrations. */
export async function openDb(options: OpenOptions = {}): Promise<Database> {
  const location = configuredLocation(options.url, options.env ?? process.env);
  if (location.driver === "postgres") return openPostgres(location.url, options);
  if (location.driver === "memory") return openMemory(options.loadDataDir);
  ensureDataDir(location.dataDir);
  return openEmbedded(location.dataDir, options);
}

function monitorFor(where: string, options: OpenOptions): OutageMonitor {
  return new OutageMonitor(where, { outageTimeoutMs: options.outageTimeoutMs ?? DEFAULT_OUTAGE_TIMEOUT_MS, onOutage: options.onOutage });
}

async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  const location = displayLocation({ driver: "postgres", url });
  try {
    await migratePostgresDb(url);
  } catch (error) {
    const failure = connectionFailure(error);
    // Starting is cheap to repeat: an unreachable server is said at once, not waited for.
    if (failure) throw new DatabaseUnavailableError(`database unreachable at ${serverAddress(url)} (${failure.cause})`);
    throw new DatabaseError(`cannot use the database at ${location}: ${errorMessage(error)}`);
  }
  // postgres.js is loaded for a Postgres URL only.
  const { postgresClient } = await import("./postgres-client.js");
  const client = postgresClient(url, options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS);
  const execute = resilientQuery(client.execute, monitorFor(serverAddress(url), options));
  await execute(PRUNE_RECEIPTS, [], "object");
  let open = true;
  return {
    db: drizzleOver(execute),
    driver: "postgres",
    location,
    role: () => (open ? "server" : "closed"),
    listen: (channel, onPayload) => client.listen(channel, onPayload),
    close: async () => {
      open = false;
      await client.close();
    },
  };
}

async function openMemory(loadDataDir?: Blob): Promise<Database> {
  const { startPglite } = await import("./embedded/pglite-start.js");
  const pg = await startPglite(undefined, loadDataDir ? { loadDataDir } : {});
  await migratePgliteDb(pg);
  let open = true;
  return {
    db: drizzleOver((sql, params, mode) => queryPglite(pg, sql, params, mode)),
    driver: "pglite",
    location: "memory://",
    role: () => (open ? "owner" : "closed"),
    close: async () => {
      open = false;
      await pg.close();
    },
  };
}

async function openEmbedded(dataDir: string, options: OpenOptions): Promise<Database> {
  const router = new EmbeddedRouter({
    dataDir,
    onOpen: migratePgliteDb,
    connectTimeoutMs: options.connectTimeoutMs,
    allowDamaged: options.allowDamaged,
    lingerMs: options.lingerMs,
  });
  try {
    // Connect now, so a database that cannot be opened fails here with one clear message.
    await router.query("select 1", [], "array");
  } catch (error) {
    await router.close();
    if (error instanceof DatabaseError) throw error;
    throw new DatabaseError(`cannot open the embedded database at ${dataDir}: ${errorMessage(error)}`);
  }
  // A write sent to a holder that was killed may have committed: the same receipts as on Postgres.
  const execute = resilientQuery((sql, params, mode) => router.query(sql, params, mode), monitorFor(dataDir, options));
  return {
    db: drizzleOver(execute),
    driver: "pglite",
    location: dataDir,
    role: () => router.role,
    listen: (channel, onPayload) => router.listen(channel, onPayload),
    async checkDamage() {
      const deep = await router.checkDeeply(TABLES);
      return deep ? { findings: deep, deep: true } : { findings: await findDamage(execute, dataDir, { thorough: true }), deep: false };
    },
    close: () => router.close(),
  };
}

const TABLES = [
  schema.sessions,
  schema.messages,
  schema.checkpoints,
  schema.events,
  schema.checklistItems,
  schema.memories,
  schema.grades,
].map((table) => getTableName(table));

/** host:port of a Postgres URL, for outage messages (never the password). */
function serverAddress(url: string): string {
  try {
    const parsed = new URL(url);
    const socketDir = parsed.searchParams.get("host");
    return parsed.hostname ? `${parsed.hostname}:${parsed.port || 5432}` : (socketDir ?? displayLocation({ driver: "postgres", url }));
  } catch {
    return displayLocation({ driver: "postgres", url });
  }
}
