import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

// What an embedded database holds while nobody holds it, for commands that only read it (`hatloop
// ls`): written by the holder as it gives the directory up cleanly, after Postgres has shut down,
// and removed by the next holder before it starts Postgres. So it exists only while nobody can be
// writing, and says what the tables said when the last writer left. It is also stamped with
// Postgres's control file as it was then, which Postgres rewrites as it starts (before it can write
// anything else) and as it shuts down: after any start since (an older hatloop, which never removes
// this file, included) the file no longer counts. And with the size and modification time of every
// file in the directory: one truncated, rewritten or deleted since (damage the database's own checks
// would report) makes it stale too. A reader that finds no file, or a stale one, opens the database
// as before, and is told what the database says.

export const RESTING_FILE = "hatloop-at-rest.json";

/** Raised in JSON.stringify: a value this file's date tags could not tell from a date. */
class Untaggable extends Error {}

const DATE = "$date";
/** This file's own layout. */
const VERSION = 1;

interface RestingFile {
  version: number;
  /** Whose values these are (resting-key.ts): another hatloop's are not read. */
  key: string;
  stamp: string;
  value: unknown;
}

/** Removes the file: the caller is about to start Postgres on the directory. */
export function dropResting(dataDir: string): void {
  rmSync(join(dataDir, RESTING_FILE), { force: true });
}

/**
 * Writes `value` (dates kept as dates) once Postgres has shut down. When the value holds an object
 * with a "$date" key, which would read back as a date, no file is left.
 */
export function writeResting(dataDir: string, key: string, value: unknown): void {
  let body: string;
  try {
    body = JSON.stringify({ version: VERSION, key, stamp: stampOf(dataDir), value } satisfies RestingFile, tagDates);
  } catch (error) {
    if (!(error instanceof Untaggable)) throw error;
    dropResting(dataDir);
    return;
  }
  const path = join(dataDir, RESTING_FILE);
  writeFileSync(`${path}.tmp`, body, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

/** The value, if the file is there, has this key, and nothing in the directory changed since it was written. */
export function readResting(dataDir: string, key: string): unknown {
  let file: RestingFile;
  try {
    file = JSON.parse(readFileSync(join(dataDir, RESTING_FILE), "utf8"), untagDates) as RestingFile;
    // Read after the file: a holder that started since has changed what the stamp is made of.
    if (file.version !== VERSION || file.key !== key || file.stamp !== stampOf(dataDir)) return null;
  } catch {
    return null;
  }
  return file.value;
}

/** Postgres's control file (its state, last checkpoint and when it was written), and every file's size and time. */
function stampOf(dataDir: string): string {
  const stamp = createHash("sha256").update(readFileSync(join(dataDir, "global", "pg_control")));
  const files = readdirSync(dataDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.startsWith(RESTING_FILE))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) {
    const { size, mtimeNs } = statSync(file, { bigint: true });
    stamp.update(`${relative(dataDir, file)}\0${size}\0${mtimeNs}\n`);
  }
  return stamp.digest("hex");
}

function tagDates(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  if (raw instanceof Date) return { [DATE]: raw.toISOString() };
  if (raw !== null && typeof raw === "object" && Object.hasOwn(raw, DATE)) throw new Untaggable();
  return value;
}

function untagDates(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === "object" && typeof (value as Record<string, unknown>)[DATE] === "string")
    return new Date((value as Record<string, string>)[DATE]!);
  return value;
}
