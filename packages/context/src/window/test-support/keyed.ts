import type { Message } from "../../messages.js";

// Entries of the tests' own, keyed by their place in the input, so a test names what it gets back.

export interface Keyed {
  id: number;
  message: Message;
}

export const keyed = (messages: readonly Message[]): Keyed[] => messages.map((message, id) => ({ id, message }));

export const idsOf = (entries: readonly Keyed[]): number[] => entries.map((e) => e.id);
