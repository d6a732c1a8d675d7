import type { Store } from "@hatloop/core";
import { openDb, type Database, type OpenOptions } from "./open.js";
import { checklistStore } from "./stores/checklist.js";
import { checkpointStore } from "./stores/checkpoints.js";
import { eventStore } from "./stores/events.js";
import { memoryStore } from "./stores/memories.js";
import { messageStore } from "./stores/messages.js";
import { sessionStore } from "./stores/sessions.js";

export interface DbStore extends Store {
  database: Database;
}

export function createStore(database: Database): DbStore {
  const { db } = database;
  return {
    database,
    sessions: sessionStore(db),
    messages: messageStore(db),
    checkpoints: checkpointStore(db),
    events: eventStore(db, database.listen?.bind(database)),
    checklist: checklistStore(db),
    memories: memoryStore(db),
    location: database.location,
    close: () => database.close(),
  };
}

/** Opens the database (migrating it) and returns the store port over it. */
export async function openStore(options: OpenOptions = {}): Promise<DbStore> {
  return createStore(await openDb(options));
}
