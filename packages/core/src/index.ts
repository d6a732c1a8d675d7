export type * from "./store/port.js";
export * from "./config.js";
export * from "./events.js";
export * from "./ports/model.js";
export type * from "./ports/tools.js";
