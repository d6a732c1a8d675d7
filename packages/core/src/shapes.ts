import { CHECKLIST_STATUSES } from "@hatloop/context";
import { z } from "zod";
import { SESSION_STATUSES } from "./light.js";

// Shapes that the events, the store port, the tool port and the database share, defined once: a zod
// schema where an event carries the shape (so stored events can be checked), its type inferred.
// db/src/schema.ts builds its enums from the same lists.

export { SESSION_STATUSES };
export const sessionStatusSchema = z.enum(SESSION_STATUSES);
export type SessionStatus = z.infer<typeof sessionStatusSchema>;
/** What a session.status event reports: a session that has started is never pending again. */
export const liveStatusSchema = sessionStatusSchema.exclude(["pending"]);
/** How a run ends (session.end). */
export const endStatusSchema = sessionStatusSchema.exclude(["pending", "running"]);

export { CHECKLIST_STATUSES };
export const checklistStatusSchema = z.enum(CHECKLIST_STATUSES);
export type ChecklistStatus = z.infer<typeof checklistStatusSchema>;

export const CHECKPOINT_REASONS = [
  "start",
  "interval",
  "warn-threshold",
  "compaction",
  "hat-change",
  "budget",
  "failure",
  "pause",
  "completion",
  "question",
] as const;
export type CheckpointReason = (typeof CHECKPOINT_REASONS)[number];

/** The agent's open question (ask_user) and, once given, the person's answer. */
export const questionSchema = z.object({
  text: z.string(),
  askedAt: z.string(),
  iteration: z.number(),
  answer: z.string().nullable(),
  answeredAt: z.string().nullable(),
  /** Who answered, e.g. "tui" or "cli@host". */
  answeredBy: z.string().nullable(),
});
export type Question = z.infer<typeof questionSchema>;

export const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
});
export type Usage = z.infer<typeof usageSchema>;

/** The grader's judgement of one acceptance criterion (see loop/grading.ts). */
export const verdictSchema = z.object({
  criterion: z.string(),
  met: z.boolean(),
  reason: z.string(),
});
export type Verdict = z.infer<typeof verdictSchema>;

export const GATE_NAMES = ["test", "lint", "build"] as const;

/** One quality gate's result as events carry it; a GateCheck adds the command's output. */
export const gateCheckSummarySchema = z.object({
  name: z.enum(GATE_NAMES),
  command: z.string(),
  exitCode: z.number().nullable(),
  passed: z.boolean(),
  /** Passed, or failed in the same way before the session started (pre-existing failure). */
  acceptable: z.boolean(),
  timedOut: z.boolean(),
  durationMs: z.number(),
  /** Failure lines that were not in the baseline. */
  newFailures: z.array(z.string()),
});
export type GateCheckSummary = z.infer<typeof gateCheckSummarySchema>;
export type GateCheck = GateCheckSummary & { output: string };
