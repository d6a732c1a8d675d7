export { generateSession } from "./session.js";
