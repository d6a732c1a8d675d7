export * from "./messages.js";
export * from "./markers.js";
export * from "./window/index.js";
export * from "./memory/index.js";
export * from "./handoff/index.js";
