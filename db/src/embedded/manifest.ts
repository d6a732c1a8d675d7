import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Execute } from "./broker.js";

// A record of how large each relation file of the embedded database was, written by the process
// holding the directory when it closes it after writing (sizes only grow, so the record of the last
// clean close stays a lower bound after a kill -9). Postgres never
// shrinks a relation file in place (hatloop runs no VACUUM, and PGlite has no autovacuum; a rewrite
// gets a new file), so a file now shorter than recorded has lost rows: a truncated sessions file
// reads as "no sessions" without any error from Postgres itself.

export const MANIFEST_FILE = "hatloop-manifest.json";

interface RelationFile {
  /** Path under the data directory, e.g. base/5/16541. */
  file: string;
  bytes: number;
}

interface Manifest {
  version: 1;
  writtenAt: string;
  relations: Record<string, RelationFile>;
}

/** hatloop's tables, their indexes and TOAST tables (where long values live), with their files. */
const RELATION_QUERY = `
  select c.relname as name, pg_relation_filepath(c.oid) as file
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname in ('public', 'drizzle') and c.relkind in ('r', 'i')
  union all
  select 'toast of ' || c.relname, pg_relation_filepath(c.reltoastrelid)
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname in ('public', 'drizzle') and c.relkind = 'r' and c.reltoastrelid <> 0`;

async function relationFiles(execute: Execute): Promise<Map<string, string>> {
  const rows = (await execute(RELATION_QUERY, [], "object")) as Array<{ name: string; file: string | null }>;
  return new Map(rows.filter((r) => r.file).map((r) => [r.name, r.file!]));
}

/** Bytes of a relation's main fork: the file and its 1 GB segments (FILE.1, FILE.2 ...); null if missing. */
function fileBytes(dataDir: string, file: string): number | null {
  const first = join(dataDir, file);
  if (!existsSync(first)) return null;
  let total = statSync(first).size;
  for (let segment = 1; existsSync(`${first}.${segment}`); segment++) total += statSync(`${first}.${segment}`).size;
  return total;
}

export function readManifest(dataDir: string): Manifest | null {
  try {
    const manifest = JSON.parse(readFileSync(join(dataDir, MANIFEST_FILE), "utf8")) as Manifest | { version: unknown };
    return manifest.version === 1 ? (manifest as Manifest) : null;
  } catch {
    return null;
  }
}

export async function writeManifest(execute: Execute, dataDir: string): Promise<void> {
  const relations: Record<string, RelationFile> = {};
  for (const [name, file] of await relationFiles(execute)) {
    const bytes = fileBytes(dataDir, file);
    if (bytes !== null) relations[name] = { file, bytes };
  }
  const path = join(dataDir, MANIFEST_FILE);
  writeFileSync(`${path}.tmp`, JSON.stringify({ version: 1, writtenAt: new Date().toISOString(), relations } satisfies Manifest));
  renameSync(`${path}.tmp`, path);
}

/**
 * Relations whose file is missing or shorter than the manifest says it was; null without a manifest.
 * Only file sizes are read unless one looks short, so a sound database costs a few stat calls.
 */
export async function shrunkenRelations(execute: Execute, dataDir: string): Promise<string[] | null> {
  const manifest = readManifest(dataDir);
  if (!manifest) return null;
  const short = Object.entries(manifest.relations).filter(([, recorded]) => (fileBytes(dataDir, recorded.file) ?? -1) < recorded.bytes);
  if (!short.length) return [];
  const current = await relationFiles(execute);
  const found: string[] = [];
  for (const [name, recorded] of short) {
    // Dropped since, or rewritten into a new file: nothing to compare with.
    if (current.get(name) !== recorded.file) continue;
    const bytes = fileBytes(dataDir, recorded.file);
    const when = manifest.writtenAt.slice(0, 16).replace("T", " ");
    found.push(
      bytes === null
        ? `${name} (${recorded.file}) is missing`
        : `${name} (${recorded.file}) is ${bytes} bytes, was ${recorded.bytes} on ${when}`,
    );
  }
  return found;
}
