import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type DbStore } from "@hatloop/db";
import { createTestDatabase } from "@hatloop/db/testing";

// The two databases hatloop runs on: embedded PGlite in a fresh data directory (the default, on
// disk as users have it) and a throwaway database on a Postgres server (dropped afterwards).

export type DriverName = "pglite" | "postgres";

export interface OpenedDb {
  store: DbStore;
  /** What a second process opens to reach the same database (a directory or a URL). */
  url: string;
  close(): Promise<void>;
}

export async function openDriver(driver: DriverName, pgUrl: string | null): Promise<OpenedDb> {
  if (driver === "pglite") {
    const dir = mkdtempSync(join(tmpdir(), "hatloop-bench-"));
    const store = await openStore({ url: dir });
    return {
      store,
      url: dir,
      close: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
        rmSync(`${dir}.lock`, { recursive: true, force: true });
      },
    };
  }
  if (!pgUrl) throw new Error("no Postgres URL");
  process.env["HATLOOP_TEST_DATABASE_URL"] = pgUrl;
  const database = await createTestDatabase();
  const store = await openStore({ url: database.url });
  return {
    store,
    url: database.url,
    close: async () => {
      await store.close();
      await database.drop();
    },
  };
}
