/**
 * Options for every postgres.js client hatloop opens. fetch_types off: postgres.js would start every
 * new connection with a query for the server's array types whose failure nobody can catch, so a
 * server going away at that moment crashed the process with an unhandled rejection
 * (porsager/postgres#1192; test/connection-cut.test.ts). hatloop's schema has no array columns and
 * passes no arrays as parameters, which is all those types are for.
 */
export const CONNECTION_OPTIONS = { onnotice: () => {}, fetch_types: false } as const;
