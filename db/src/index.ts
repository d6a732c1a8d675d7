export { openDb, DatabaseError, type Database, type OpenOptions } from "./open.js";
export { createStore, openStore, type DbStore } from "./store.js";
export { migrationsFolder } from "./migrate.js";
export { hatloopHome, defaultPgliteDir } from "./paths.js";
export { schema } from "./schema.js";
export type { Db } from "./db.js";
