export { generateSession, type GenerateOptions } from "./session.js";
export type { FactCategory, PlantedFact, Priority, SyntheticSession } from "./types.js";
