import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { errorMessage } from "@hatloop/context";
import { DatabaseDamagedError } from "./damage.js";
import { readManifest } from "./manifest.js";

// Damage the manifest cannot see, named as damage instead of as what PGlite says: a page overwritten
// in place fails its query ("invalid page in block 0 of relation base/5/16632", which drizzle shows
// as "Failed query: select ... params: ..."), and a directory without its control file or its
// write-ahead log makes PGlite abort while starting ("Aborted(). Build with -sASSERTIONS").

/** SQLSTATEs of data Postgres found corrupt: data_corrupted, index_corrupted. */
const CORRUPT = new Set(["XX001", "XX002"]);
/** A WAL segment's name: timeline, log and segment, 8 hex digits each. */
const WAL_SEGMENT = /^[0-9A-F]{24}$/;

/** A query's error as DatabaseDamagedError when Postgres found the data it read corrupt; else the error itself. */
export function corruptionIn(dataDir: string, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !CORRUPT.has(code)) return error;
  const message = errorMessage(error).split("\n")[0]!;
  const file = /relation "?([\w/.]+?)"?(?:\s|$)/.exec(message)?.[1];
  const name = file ? Object.entries(readManifest(dataDir)?.relations ?? {}).find(([, r]) => r.file === file)?.[0] : undefined;
  const what = name && file ? `${name} (${file})` : file ? `the relation file ${file}` : "a relation file";
  // Found by a query: writes before it may have gone through, so "nothing was changed" is not said.
  return new DatabaseDamagedError(dataDir, [`${what} cannot be read (${message})`], { unchanged: false });
}

/** What PGlite says when PostgreSQL gives up while starting on the files it found. */
const START_ABORTED = /Aborted\(|failed to initialize/i;

/**
 * Why PGlite could not start on `dataDir`, when the directory held a database (`existed`): a file
 * every cluster has that is gone, else PostgreSQL's abort on a file it could not use. Anything else
 * (a new directory, a permission refused) stays as it is: it is not damage.
 */
export function startFailure(dataDir: string, error: unknown, existed: boolean): unknown {
  if (!existed) return error;
  const missing = missingPiece(dataDir);
  if (missing) return new DatabaseDamagedError(dataDir, [missing]);
  const message = error instanceof Error ? error.message : String(error);
  if (!START_ABORTED.test(message)) return error;
  const words = message.replace(/\.?\s*Build with -sASSERTIONS for more info\.?/, "").trim();
  return new DatabaseDamagedError(dataDir, [`PostgreSQL cannot start on its files (${words})`]);
}

/** Whether `dataDir` holds a database (as opposed to one still to be created). */
export function holdsDatabase(dataDir: string): boolean {
  return existsSync(join(dataDir, "PG_VERSION"));
}

function missingPiece(dataDir: string): string | null {
  if (!existsSync(join(dataDir, "global", "pg_control"))) return "global/pg_control (its control file) is missing";
  const wal = join(dataDir, "pg_wal");
  if (!existsSync(wal) || !readdirSync(wal).some((name) => WAL_SEGMENT.test(name))) return "pg_wal holds no write-ahead log segment";
  return null;
}
