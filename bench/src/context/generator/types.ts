import type { Message } from "@hatloop/context";

// What the synthetic generator produces: a Ralph-loop session as Anthropic messages, with the
// ground truth of every planted fact.

type FactCategory = "goal" | "constraint" | "decision" | "superseded" | "failing-test" | "next-step" | "incidental";
export type Priority = "P0" | "P1" | "P2";

export interface PlantedFact {
  id: string;
  category: FactCategory;
  priority: Priority;
  /** What the fact is, for reports. */
  description: string;
  /** Canonical strings of the current value: present when all appear (case-insensitive). */
  needles: string[];
  /** Optional canonical regex (source, case-insensitive), required besides the needles. */
  regex?: string;
  /** For superseded values: the old value. Shown as current when it appears without the new one. */
  staleNeedles?: string[];
  /** Index in the session's messages of the message that plants the current value. */
  messageIndex: number;
}

export interface SyntheticSession {
  name: string;
  seed: number;
  iterations: number;
  messages: Message[];
  facts: PlantedFact[];
}
