import { accessSync, constants, mkdirSync, statSync, type Stats } from "node:fs";
import { dirname, resolve } from "node:path";
import { errorMessage, placeholder } from "@hatloop/context";
import { defaultPgliteDir } from "./paths.js";

// Where the data lives, decided from a --db / DATABASE_URL value before anything is opened or
// created: a typo such as mysql://... must not become a new embedded database in ./mysql:, and an
// unusable data directory must be one clear error rather than a hang.

export class DatabaseError extends Error {}

/** The configured location cannot work: the user must change --db, DATABASE_URL or HATLOOP_HOME. */
export class DatabaseConfigError extends DatabaseError {}

export type DatabaseLocation = { driver: "postgres"; url: string } | { driver: "memory" } | { driver: "pglite"; dataDir: string };

/** A URL scheme of two letters or more (so a Windows drive letter is not one). */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]+):/;

export function locateDatabase(url: string): DatabaseLocation {
  if (/^postgres(ql)?:\/\//.test(url)) return { driver: "postgres", url };
  if (url === "memory://") return { driver: "memory" };
  const scheme = SCHEME.exec(url)?.[1];
  if (scheme !== undefined && scheme !== "file") {
    throw new DatabaseConfigError(
      `unsupported database URL "${url}": use postgres://..., postgresql://..., memory:// or a directory for the embedded database (file:DIR also works)`,
    );
  }
  return { driver: "pglite", dataDir: resolve(url.replace(/^file:(\/\/)?/, "")) };
}

/** Where `url` (--db, the configuration), else DATABASE_URL, else the default data directory points. */
export function configuredLocation(url: string | undefined, env: NodeJS.ProcessEnv): DatabaseLocation {
  return locateDatabase(url ?? env.DATABASE_URL ?? defaultPgliteDir(env));
}

/** For messages and `hatloop db path`: a Postgres URL's password is hidden, as redaction hides it everywhere. */
export function displayLocation(location: DatabaseLocation): string {
  if (location.driver === "postgres") return location.url.replace(/\/\/([^:/@]+):[^@]*@/, `//$1:${placeholder("url-password")}@`);
  return location.driver === "memory" ? "memory://" : location.dataDir;
}

/** Creates the PGlite data directory if needed and checks that it (and its lock's parent) is writable. */
export function ensureDataDir(dataDir: string): void {
  const problem = dataDirProblem(dataDir);
  if (problem)
    throw new DatabaseConfigError(
      `cannot use the data directory ${dataDir}: ${problem} (point HATLOOP_HOME or --db at a writable directory)`,
    );
}

function dataDirProblem(dataDir: string): string | null {
  // Node's recursive mkdirSync never returns under /proc, so the missing levels are made one by one.
  const missing: string[] = [];
  let existing = dataDir;
  let info = statOrNull(existing);
  while (!info && dirname(existing) !== existing) {
    missing.unshift(existing);
    existing = dirname(existing);
    info = statOrNull(existing);
  }
  if (info && !info.isDirectory()) return `${existing} is not a directory`;
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") return `cannot create ${dir} (${code ?? errorMessage(error)})`;
    }
  }
  if (!statOrNull(dataDir)?.isDirectory()) return `${dataDir} is not a directory`;
  // The lock directory is made beside the data directory, so both must accept new entries.
  for (const dir of [dataDir, dirname(dataDir)]) {
    try {
      accessSync(dir, constants.W_OK);
    } catch {
      return `${dir} is not writable`;
    }
  }
  return null;
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
