import { redactingStore, type Store } from "@hatloop/core";
import { withLeaseErrors, type Fence } from "./fence.js";
import { openDb, type Database, type OpenOptions } from "./open.js";
import { surfaceDatabaseErrors } from "./resilience/surface-errors.js";
import { checklistStore } from "./stores/checklist.js";
import { checkpointStore } from "./stores/checkpoints.js";
import { eventStore } from "./stores/events.js";
import { gradeStore } from "./stores/grades.js";
import { memoryStore } from "./stores/memories.js";
import { messageStore } from "./stores/messages.js";
import { sessionStore } from "./stores/sessions.js";

export interface DbStore extends Store {
  database: Database;
}

export function createStore(database: Database, fence?: Fence): DbStore {
  const { db } = database;
  const stores = {
    sessions: sessionStore(db, fence),
    messages: messageStore(db, fence),
    checkpoints: checkpointStore(db, fence),
    events: eventStore(db, database.listen?.bind(database), fence),
    checklist: checklistStore(db, fence),
    memories: memoryStore(db),
    grades: gradeStore(db, fence),
  };
  const fencedStores = fence
    ? (Object.fromEntries(Object.entries(stores).map(([k, v]) => [k, withLeaseErrors(v, fence)])) as typeof stores)
    : stores;
  return {
    database,
    ...fencedStores,
    location: database.location,
    fenced: (sessionId, epoch) => createStore(database, { sessionId, epoch }),
    // A fenced view shares the connection; only the store that opened it closes it.
    close: fence ? async () => {} : () => database.close(),
  };
}

/** Opens the database (migrating it) and returns the store port over it, redacting every write. */
export async function openStore(options: OpenOptions = {}): Promise<DbStore> {
  return redactingStore(surfaceDatabaseErrors(createStore(await openDb(options))));
}
