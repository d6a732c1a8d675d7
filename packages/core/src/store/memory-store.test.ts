import { describeStoreContract } from "../test-support/store-contract.js";
import { memoryStore } from "./memory-store.js";

// The in-memory store keeps the database's contract (db/test/stores.test.ts runs the same one).
describeStoreContract("memory", async () => memoryStore());
