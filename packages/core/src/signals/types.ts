// Signals the agent writes at the start of a line in its responses (also offered as tools).

export const MEMORY_TYPES = ["architecture", "pattern", "pitfall", "decision", "fix", "convention", "dependency", "constraint"] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export type Signal =
  | { kind: "scratchpad"; content: string }
  | { kind: "checklist_add"; id: string; description: string }
  | { kind: "checklist_done"; id: string }
  | { kind: "checklist_failed"; id: string; reason: string }
  | { kind: "memory"; memoryType: MemoryType; text: string }
  | { kind: "event"; topic: string; payload: unknown }
  | { kind: "acknowledge" }
  /** A question for the person running the session; the run waits for the answer (ask_user). */
  | { kind: "ask"; question: string }
  | { kind: "malformed"; signal: string; line: string; reason: string };

export type ChecklistSignal = Extract<Signal, { kind: "checklist_add" | "checklist_done" | "checklist_failed" }>;
