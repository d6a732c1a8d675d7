// Knowledge facts kept across compactions (docs/design/memory-and-recall.md): small statements with a key naming what they
// are about, so that a newer statement about the same thing can refine or supersede an older one.

/** The fact types plus the MEMORY signal types the hats use. */
export const FACT_TYPES = [
  "decision",
  "implementation",
  "config",
  "issue",
  "task_state",
  "architecture",
  "pattern",
  "pitfall",
  "fix",
  "convention",
  "dependency",
  "constraint",
] as const;

export type FactType = (typeof FACT_TYPES)[number];

export function isFactType(value: string): value is FactType {
  return (FACT_TYPES as readonly string[]).includes(value);
}

export interface FactCandidate {
  /** What the fact is about, e.g. "api-port", "use-for:package-management", "test:src/a.test.ts > x". */
  key: string;
  type: FactType;
  content: string;
  /** Position in the source (later = newer); decides between candidates with the same key. */
  seq?: number;
}

/** A fact already stored (the memories table's active rows of kind "fact"). */
export interface ExistingFact {
  id: string | number;
  /** Null for rows written before keys existed; the key is then derived from the content. */
  key: string | null;
  type: string;
  content: string;
}

export type FactOp =
  | { op: "ADD"; fact: FactCandidate }
  /** Same key, more detailed content: update the stored row in place. */
  | { op: "UPDATE"; id: ExistingFact["id"]; previous: string; fact: FactCandidate }
  /** Same key, contradicting value: mark `id` superseded (the row stays) and add `fact`. */
  | { op: "SUPERSEDE"; id: ExistingFact["id"]; previous: string; fact: FactCandidate }
  /** Nothing to do: already known, or replaced by a newer candidate in the same batch. */
  | { op: "NONE"; fact: FactCandidate; reason: "duplicate" | "outdated-in-batch"; id: ExistingFact["id"] | null };
