import { afterAll, beforeAll, expect, it } from "vitest";
import { describeStoreContract, newCheckpoint, newSession } from "../../packages/core/src/test-support/store-contract.js";
import { openTestStore } from "../src/testing.js";
import { describeOnDrivers } from "./support/drivers.js";
import type { DbStore } from "../src/store.js";

// The store port's contract, the same the in-memory store keeps (packages/core/src/test-support/
// store-contract.ts), on each database; then what only the database does.

describeOnDrivers("%s", (driver) => describeStoreContract(driver, () => openTestStore(driver)));

/** Drizzle wraps driver errors ("Failed query: ..."); the database's own message is the cause. */
async function expectDbError(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e as Error & { cause?: Error },
  );
  expect(error, "expected the database to refuse").not.toBeNull();
  expect(`${error?.message} ${error?.cause?.message ?? ""}`).toMatch(pattern);
}

describeOnDrivers("the database on %s", (driver) => {
  let store: DbStore;
  beforeAll(async () => {
    store = await openTestStore(driver);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("refuses to change a stored message or checkpoint, even in SQL", async () => {
    const s = await store.sessions.create(newSession());
    await store.messages.append(s.id, [
      { seq: 1, iteration: 1, hat: "explorer", kind: "conversation", message: { role: "user", content: "start" }, tokenEstimate: 1 },
    ]);
    await store.checkpoints.append(s.id, newCheckpoint());
    await expectDbError(
      store.database.db.execute(`update messages set hat = 'x' where session_id = '${s.id}'`),
      /rows of messages are immutable/,
    );
    await expectDbError(
      store.database.db.execute(`update checkpoints set hat = 'x' where session_id = '${s.id}'`),
      /rows of checkpoints are immutable/,
    );
  });
});
