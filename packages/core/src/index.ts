export type * from "./store/port.js";
