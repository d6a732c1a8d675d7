import { z } from "zod";

// One zod-typed event union: the contract between the loop, the store (events table), the plain and
// JSON printers and the TUI. Every event carries its session, iteration and time; `type` is a dotted
// name. Payloads are small: text deltas are coalesced before storage, tool results are summarised.

const usage = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
});

const gateCheck = z.object({
  name: z.enum(["test", "lint", "build"]),
  command: z.string(),
  exitCode: z.number().nullable(),
  passed: z.boolean(),
  acceptable: z.boolean(),
  timedOut: z.boolean(),
  durationMs: z.number(),
  newFailures: z.array(z.string()),
});

const bodies = {
  "session.start": z.object({
    task: z.string(),
    hat: z.string(),
    branch: z.string(),
    worktree: z.string(),
    model: z.string(),
    resumed: z.boolean(),
    maxIterations: z.number().nullable(),
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
  }),
  "context.recalled": z.object({ query: z.string(), hits: z.number(), tokens: z.number() }),
  "model.request": z.object({ model: z.string(), messages: z.number(), contextTokens: z.number() }),
  "model.text": z.object({ text: z.string() }),
  "model.retry": z.object({ attempt: z.number(), waitMs: z.number(), status: z.number().nullable(), reason: z.string() }),
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
  "signal.checklist": z.object({ id: z.string(), status: z.enum(["done", "failed"]), reason: z.string().nullable(), known: z.boolean() }),
  "signal.memory": z.object({ memoryType: z.string(), text: z.string() }),
  "signal.event": z.object({ topic: z.string(), payload: z.unknown().optional() }),
  "signal.acknowledge": z.object({}),
  "signal.malformed": z.object({ signal: z.string(), line: z.string(), reason: z.string() }),
  "checklist.set": z.object({ items: z.array(z.object({ id: z.string(), description: z.string(), status: z.string() })) }),
  "hat.change": z.object({ from: z.string(), to: z.string(), topic: z.string() }),
  "route.rejected": z.object({ hat: z.string(), topic: z.string(), reason: z.string() }),
  "gate.result": z.object({ passed: z.boolean(), checks: z.array(gateCheck) }),
  "completion.refused": z.object({ reason: z.string() }),
  "health.warning": z.object({ kind: z.string(), level: z.enum(["warn", "hint", "stop"]), message: z.string() }),
  "budget.exceeded": z.object({ budget: z.enum(["iterations", "tokens", "cost", "runtime"]), limit: z.number(), value: z.number() }),
  "usage.total": z.object({ usage, costUsd: z.number(), contextTokens: z.number(), contextWindow: z.number() }),
  "checkpoint.saved": z.object({ seq: z.number(), reason: z.string(), commit: z.string().nullable(), contextTokens: z.number() }),
  "steer": z.object({ text: z.string() }),
  "session.status": z.object({ status: z.enum(["running", "paused", "completed", "failed", "stopped"]), reason: z.string().nullable() }),
  "session.end": z.object({
    status: z.enum(["completed", "paused", "failed", "stopped"]),
    reason: z.string(),
    iterations: z.number(),
    costUsd: z.number(),
  }),
  "error": z.object({ message: z.string(), fatal: z.boolean() }),
} as const;

export type LoopEventType = keyof typeof bodies;

const envelope = { sessionId: z.string(), iteration: z.number().int().nonnegative(), ts: z.number() };

const variants = Object.entries(bodies).map(([type, body]) =>
  z.object({ ...envelope, type: z.literal(type), data: body }),
) as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]];

/** Validates any stored or received event. */
export const loopEventSchema = z.discriminatedUnion("type", variants);

export type LoopEvent = {
  [K in LoopEventType]: { sessionId: string; iteration: number; ts: number; type: K; data: z.infer<(typeof bodies)[K]> };
}[LoopEventType];

export type EventOf<K extends LoopEventType> = Extract<LoopEvent, { type: K }>;
export type EventData<K extends LoopEventType> = EventOf<K>["data"];

/** Anything that receives events: the store persister, a printer, the TUI. */
export type EventSink = (event: LoopEvent) => void;
