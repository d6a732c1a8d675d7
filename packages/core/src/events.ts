import { z } from "zod";
import {
  checklistStatusSchema,
  endStatusSchema,
  gateCheckSummarySchema,
  liveStatusSchema,
  usageSchema as usage,
  verdictSchema,
} from "./shapes.js";

// One zod-typed event union: the contract between the loop, the store (events table), the plain and
// JSON printers and the TUI. Every event carries its session, iteration and time; `type` is a dotted
// name. Payloads are small: text deltas are coalesced before storage, tool results are summarised.
// The envelope carries the schema version `v` (EVENT_VERSION): a change that an older reader would
// misread raises it. Events read back from another process are checked against it (persist/read-events.ts).

/** The version of the event schema this build writes and reads. */
export const EVENT_VERSION = 1 as const;

const bodies = {
  "session.start": z.object({
    task: z.string(),
    hat: z.string(),
    branch: z.string(),
    worktree: z.string(),
    model: z.string(),
    resumed: z.boolean(),
    maxIterations: z.number().nullable(),
    /** Who runs it: a fleet worker's name, or host:pid (absent in events stored before it was added). */
    runner: z.string().optional(),
  }),
  "iteration.start": z.object({ hat: z.string() }),
  "iteration.end": z.object({ hat: z.string(), durationMs: z.number() }),
  "context.gauge": z.object({
    tokens: z.number(),
    window: z.number(),
    percent: z.number(),
    zone: z.enum(["green", "gauge", "warn", "compact"]),
  }),
  "context.compacted": z.object({
    strategy: z.string(),
    level: z.number(),
    tokensBefore: z.number(),
    tokensAfter: z.number(),
    removed: z.number(),
    /** Why the LLM summary was not used (the mechanical one stood in); absent when it was, or was not asked for. */
    summaryFallback: z.string().optional(),
  }),
  "context.recalled": z.object({ query: z.string(), hits: z.number(), tokens: z.number() }),
  "model.request": z.object({ model: z.string(), messages: z.number(), contextTokens: z.number() }),
  "model.text": z.object({ text: z.string() }),
  "model.retry": z.object({ attempt: z.number(), waitMs: z.number(), status: z.number().nullable(), reason: z.string() }),
  /**
   * The account's usage limit was reached: the loop waits until `resetAt` (epoch ms) and goes on, or
   * stops (opted out, no reset time given, or the reset is past the runtime budget). Once per reset.
   */
  "model.usage_limit": z.object({
    resetAt: z.number().nullable(),
    action: z.enum(["wait", "stop", "budget"]),
    /** The line shown, worded when it happened (the reset in the runner's local time). */
    message: z.string(),
    /** The API's own words. */
    reason: z.string(),
  }),
  /** The provider or its SDK said something the user should know (a deprecated model); once per run. */
  "model.notice": z.object({ message: z.string() }),
  /** The API refused to go on (stop_reason "refusal"); the refused answer is archived, never sent back. */
  "model.refusal": z.object({
    category: z.string().nullable(),
    explanation: z.string().nullable(),
    consecutive: z.number(),
    action: z.enum(["retry", "withhold", "stop"]),
  }),
  /** The output limit cut a tool call; `retryWith` is the larger limit tried next, null when the model is told instead. */
  "model.truncated": z.object({ tools: z.array(z.string()), maxTokens: z.number(), retryWith: z.number().nullable() }),
  /** The request did not fit the model (400 prompt too long, 413 too large); compaction follows, then the same iteration again. */
  "context.overflow": z.object({ promptTokens: z.number().nullable(), maxTokens: z.number().nullable(), attempt: z.number() }),
  "model.response": z.object({
    stopReason: z.string(),
    usage,
    costUsd: z.number(),
    toolCalls: z.number(),
    textChars: z.number(),
  }),
  "tool.call": z.object({ id: z.string(), name: z.string(), summary: z.string() }),
  "tool.result": z.object({
    id: z.string(),
    name: z.string(),
    isError: z.boolean(),
    chars: z.number(),
    durationMs: z.number(),
    preview: z.string(),
  }),
  "signal.scratchpad": z.object({ chars: z.number(), /** The scratchpad itself, cut at 8,000 characters. */ content: z.string() }),
  "signal.checklist": z.object({
    id: z.string(),
    status: checklistStatusSchema.extract(["done", "failed"]),
    reason: z.string().nullable(),
    known: z.boolean(),
  }),
  "signal.memory": z.object({ memoryType: z.string(), text: z.string() }),
  "signal.event": z.object({ topic: z.string(), payload: z.unknown().optional() }),
  "signal.acknowledge": z.object({}),
  "signal.malformed": z.object({ signal: z.string(), line: z.string(), reason: z.string() }),
  "checklist.set": z.object({ items: z.array(z.object({ id: z.string(), description: z.string(), status: checklistStatusSchema })) }),
  "hat.change": z.object({ from: z.string(), to: z.string(), topic: z.string() }),
  "route.rejected": z.object({ hat: z.string(), topic: z.string(), reason: z.string() }),
  "gate.result": z.object({ passed: z.boolean(), checks: z.array(gateCheckSummarySchema) }),
  "completion.refused": z.object({ reason: z.string() }),
  /** The gates passed and the grader (a fresh context, `model`) is asked about the task's acceptance criteria. */
  "grader.start": z.object({ round: z.number(), criteria: z.number(), model: z.string() }),
  /**
   * The grader's verdict per criterion. `action`: complete (all met), revise (unmet ones go back to
   * the loop; `revisions` counts them, `maxRevisions` the limit) or stop (the limit is reached).
   */
  "grader.verdict": z.object({
    round: z.number(),
    satisfied: z.boolean(),
    verdicts: z.array(verdictSchema),
    revisions: z.number(),
    maxRevisions: z.number(),
    action: z.enum(["complete", "revise", "stop"]),
    model: z.string(),
    usage,
    costUsd: z.number(),
  }),
  /** The person answered the agent's question (the question itself: session.status "waiting"). */
  "question.answered": z.object({ question: z.string(), answer: z.string(), answeredBy: z.string() }),
  "health.warning": z.object({ kind: z.string(), level: z.enum(["warn", "hint", "stop"]), message: z.string() }),
  "budget.exceeded": z.object({
    budget: z.enum(["iterations", "tokens", "cost", "runtime", "wait"]),
    limit: z.number(),
    value: z.number(),
  }),
  "usage.total": z.object({ usage, costUsd: z.number(), contextTokens: z.number(), contextWindow: z.number() }),
  "checkpoint.saved": z.object({ seq: z.number(), reason: z.string(), commit: z.string().nullable(), contextTokens: z.number() }),
  steer: z.object({ text: z.string() }),
  "session.status": z.object({ status: liveStatusSchema, reason: z.string().nullable() }),
  "session.end": z.object({
    status: endStatusSchema,
    reason: z.string(),
    iterations: z.number(),
    costUsd: z.number(),
  }),
  error: z.object({ message: z.string(), fatal: z.boolean() }),
  /** Another runner took the session's lease: this one stopped without writing anything more. */
  "session.lease-lost": z.object({ message: z.string() }),
  /** A lifecycle hook (config `hooks`) failed after its retries; reported, never fatal. `target` names it without secrets. */
  "hook.failed": z.object({ hook: z.string(), target: z.string(), attempts: z.number(), error: z.string() }),
  /** `--pr` after a completion: the pull request opened, or why not (then compareUrl, when known, opens one by hand). */
  "pr.result": z.object({
    opened: z.boolean(),
    url: z.string().nullable(),
    compareUrl: z.string().nullable(),
    branch: z.string(),
    base: z.string().nullable(),
    remote: z.string(),
    pushed: z.boolean(),
    draft: z.boolean(),
    reason: z.string().nullable(),
  }),
  /** The database became unreachable (the run waits for it) or reachable again. */
  "database.outage": z.object({ state: z.enum(["unreachable", "reachable"]), location: z.string(), message: z.string() }),
} as const;

export type LoopEventType = keyof typeof bodies;

/** Every event type, in the order of the contract above. */
export const LOOP_EVENT_TYPES = Object.keys(bodies) as LoopEventType[];

// An event without `v` was written before versioning: version 1.
const envelope = {
  v: z.literal(EVENT_VERSION).default(EVENT_VERSION),
  sessionId: z.string(),
  iteration: z.number().int().nonnegative(),
  ts: z.number(),
};

const variants = Object.entries(bodies).map(([type, body]) => z.object({ ...envelope, type: z.literal(type), data: body })) as unknown as [
  z.ZodObject,
  z.ZodObject,
  ...z.ZodObject[],
];

/** Validates any stored or received event of this version (see parseLoopEvent for a reader's view). */
export const loopEventSchema = z.discriminatedUnion("type", variants);

export type LoopEvent = {
  [K in LoopEventType]: {
    v: typeof EVENT_VERSION;
    sessionId: string;
    iteration: number;
    ts: number;
    type: K;
    data: z.infer<(typeof bodies)[K]>;
  };
}[LoopEventType];

export type EventOf<K extends LoopEventType> = Extract<LoopEvent, { type: K }>;
export type EventData<K extends LoopEventType> = EventOf<K>["data"];

/** Anything that receives events: the store persister, a printer, the TUI. */
export type EventSink = (event: LoopEvent) => void;
