export * from "./messages.js";
