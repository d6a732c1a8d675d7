export { createConsole, type Console, type ConsoleOptions } from "./app.js";
export { ConsoleAuth, sameSecret } from "./auth.js";
export { allowedHosts, hostRefusal, isLoopback, isWildcard, type ServeAccess } from "./access.js";
export { matchesQuery } from "./query.js";
export { actionOf } from "./routes/action-routes.js";
export { scriptBodies } from "./assets.js";
export type * from "./backend.js";
