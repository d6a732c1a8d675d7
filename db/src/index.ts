export { openDb, DEFAULT_OUTAGE_TIMEOUT_MS, DEFAULT_QUERY_TIMEOUT_MS, type Database, type OpenOptions } from "./open.js";
export { DatabaseUnavailableError, describeOutage, type OutageReport } from "./resilience/outage.js";
export { surfacedError } from "./resilience/surface-errors.js";
export { DatabaseDamagedError } from "./embedded/damage.js";
export { DatabaseConfigError, DatabaseError, displayLocation, locateDatabase, type DatabaseLocation } from "./location.js";
export { createStore, openStore, type DbStore } from "./store.js";
export { migrationsFolder } from "./migrate.js";
export { hatloopHome, defaultPgliteDir } from "./paths.js";
export { holderOf, type HolderStatus } from "./embedded/holder-status.js";
export { schema } from "./schema.js";
export type { Db } from "./db.js";
export {
  fleetStore,
  setRetryDelay,
  submitSession,
  takeRepoSlot,
  type FleetSubmission,
  type FleetStore,
  type FleetRow,
  type QueueState,
  type SqlExecutor,
} from "./stores/fleet.js";
export { workerStore, type WorkerRow, type WorkerState, type WorkerStore, type NewWorker } from "./stores/workers.js";
export { filteredSessions, sessionTotals, hasQueue, type SessionFilter, type SessionTotals, type Tally } from "./stores/session-listing.js";
