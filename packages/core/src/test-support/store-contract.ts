import { afterAll, beforeAll, describe } from "vitest";
import type { NewSession, Store } from "../store/port.js";
import { newSession, type StoreUnderTest } from "./store-contract/kit.js";
import { describeLeaseContract } from "./store-contract/lease.js";
import { describeMessagesContract } from "./store-contract/messages.js";
import { describeRecordsContract } from "./store-contract/records.js";
import { describeSessionsContract } from "./store-contract/sessions.js";

// The store port's contract, run on every implementation: the in-memory store the loop's tests use
// (store/memory-store.test.ts) and the database on PGlite and Postgres (db/test/stores.test.ts). What
// one store does here the others must do too, so a loop test on memory means what it says.

export { newCheckpoint, newSession } from "./store-contract/kit.js";

export function describeStoreContract(name: string, open: () => Promise<Store>): void {
  describe(`the store contract on ${name}`, () => {
    let opened: Store | undefined;
    beforeAll(async () => {
      opened = await open();
    });
    afterAll(async () => {
      await opened?.close();
    });
    const t: StoreUnderTest = {
      get store() {
        if (!opened) throw new Error("the store is not open yet");
        return opened;
      },
      session: async (overrides: Partial<NewSession> = {}) => (await t.store.sessions.create(newSession(overrides))).id,
    };
    describeSessionsContract(t);
    describeMessagesContract(t);
    describeRecordsContract(t);
    describeLeaseContract(t);
  });
}
