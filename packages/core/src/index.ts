export type * from "./store/port.js";
export * from "./config.js";
