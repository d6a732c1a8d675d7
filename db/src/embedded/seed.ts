import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { migratePgliteDb, migrationsFolder } from "../migrate.js";
import { unpackTarGz } from "./tar-unpack.js";

// A new embedded database starts from a seed: a dump of an empty, migrated database. Creating one
// from nothing runs Postgres' initdb in WebAssembly (~5 s of CPU and ~700 MiB at its peak, measured
// by `pnpm bench startup`); unpacking the seed takes a fraction of that. The build writes the seed
// beside dist/ (scripts/build-seed.mjs; `pnpm demo` too); without one a database is created the
// slow way. A seed is named by what it holds — the PGlite version and the migrations — so a stale
// one is never used.

// The package's dist/, from src/ (tests) as from dist/.
const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));

let cachedName: string | null = null;

/** The seed's file name: PGlite's version and a hash of every migration (neither changes while a process runs). */
function seedName(): string {
  cachedName ??= hashedName();
  return cachedName;
}

function hashedName(): string {
  const hash = createHash("sha256");
  hash.update(pgliteVersion());
  for (const file of readdirSync(migrationsFolder).sort())
    if (file.endsWith(".sql")) hash.update(readFileSync(join(migrationsFolder, file)));
  return `pglite-seed-${hash.digest("hex").slice(0, 16)}.tar.gz`;
}

function pgliteVersion(): string {
  const entry = import.meta.resolve("@electric-sql/pglite");
  return (JSON.parse(readFileSync(new URL("../package.json", entry), "utf8")) as { version: string }).version;
}

/** Where seeds are looked for: beside the build, then the temporary directory (tests write theirs there). */
const places = (): string[] => [DIST, tmpdir()];

function seedPath(): string | null {
  return (
    places()
      .map((dir) => join(dir, seedName()))
      .find((path) => existsSync(path)) ?? null
  );
}

/** The current seed, or null when none was built: for a database in memory (PGlite's loadDataDir). */
export function readSeed(): Blob | null {
  const path = seedPath();
  return path ? new Blob([readFileSync(path)]) : null;
}

/**
 * Unpacks the seed into a fresh data directory, on disk: PGlite's own loadDataDir would hold the
 * whole database in memory on the way (~300 MiB at the peak instead of ~150). PG_VERSION comes last,
 * so a directory whose unpacking was cut short is still fresh and is unpacked again. False without a seed.
 */
export async function unpackSeed(dataDir: string): Promise<boolean> {
  const path = seedPath();
  if (!path) return false;
  await unpackTarGz(path, dataDir, "PG_VERSION");
  return true;
}

/** Builds the seed from nothing (initdb, then the migrations) with `start`, and writes it to `dir`. */
export async function writeSeed(start: () => Promise<PGlite>, dir = DIST): Promise<Blob> {
  const pg = await start();
  await migratePgliteDb(pg);
  const dump = await pg.dumpDataDir("gzip");
  await pg.close();
  const path = join(dir, seedName());
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
  renameSync(tmp, path); // atomic: a concurrent reader never sees half a file
  return dump;
}

/** A data directory that has never been created (no PG_VERSION): it can start from the seed. */
export function isFresh(dataDir: string): boolean {
  return !existsSync(join(dataDir, "PG_VERSION"));
}
