import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { migratePostgresDb, migrationsFolder } from "./migrate.js";

// A migrated database on the test server for CREATE DATABASE ... TEMPLATE: a test database copied from
// it is ready in 0.15 s, where migrating an empty one takes 1.5-1.9 s. Its name carries a hash of every
// migration, so a changed migration builds a new one and a template is never migrated after it is made.
// It stays on the server for the next run (a few MB); it takes no connections, so nothing changes it.

// Any fixed number: serialises the test processes that would build the same template at once.
const TEMPLATE_LOCK = 0x68617474;

const built = new Map<string, Promise<string>>();

/** The name of the migrated template on the server `adminUrl` names, built on first use. */
export function migratedTemplate(adminUrl: string): Promise<string> {
  let name = built.get(adminUrl);
  if (!name) {
    name = buildOnce(adminUrl);
    built.set(adminUrl, name);
    name.catch(() => built.delete(adminUrl));
  }
  return name;
}

function templateName(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(migrationsFolder).sort())
    if (file.endsWith(".sql")) hash.update(readFileSync(join(migrationsFolder, file)));
  return `hatloop_template_${hash.digest("hex").slice(0, 16)}`;
}

async function buildOnce(adminUrl: string): Promise<string> {
  const name = templateName();
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await admin`select pg_advisory_lock(${TEMPLATE_LOCK})`;
    const [found] = await admin<Array<{ n: number }>>`select count(*)::int as n from pg_database where datname = ${name}`;
    if (!found?.n) {
      // Built under another name and renamed when complete: a builder that dies half way leaves no template.
      const building = `${name}_b${randomBytes(3).toString("hex")}`;
      await admin.unsafe(`create database ${building}`);
      try {
        const url = new URL(adminUrl);
        url.pathname = `/${building}`;
        await migratePostgresDb(url.toString());
        await admin.unsafe(`alter database ${building} rename to ${name}`);
      } catch (error) {
        await admin.unsafe(`drop database if exists ${building} with (force)`);
        throw error;
      }
      await admin.unsafe(`alter database ${name} with is_template true allow_connections false`);
    }
    await admin`select pg_advisory_unlock(${TEMPLATE_LOCK})`;
    return name;
  } finally {
    await admin.end({ timeout: 5 });
  }
}
