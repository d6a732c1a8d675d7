import { join } from "node:path";
import { openStore, type DbStore } from "@hatloop/db";

/** Opens the embedded database of a HATLOOP_HOME for the length of fn, and closes it. */
export async function withStore<T>(home: string, fn: (store: DbStore) => Promise<T>): Promise<T> {
  const store = await openStore({ url: join(home, "pglite") });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
