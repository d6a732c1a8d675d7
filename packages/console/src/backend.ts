import type { Budgets, ChecklistItem, LoopEvent, SessionRecord } from "@hatloop/core";

// What the console needs from the world, as a port: the CLI implements it over the store, the queue
// and the session commands (apps/cli/src/serve/backend.ts), tests over an in-memory store. The console
// itself only renders what it is given and hands actions back.

export interface SessionQuery {
  /** Display statuses (running, paused, waiting, queued, dead-lettered, ...); empty: all. */
  status?: string[];
  worker?: string;
  repo?: string;
  /** Words in the task or title, or an id prefix. */
  text?: string;
  /** Only these sessions (a live update of the rows they are in). */
  ids?: string[];
  limit?: number;
}

export interface SessionRow {
  /** The stored session (its stored status is not what a person sees: `status` is). */
  session: Omit<SessionRecord, "status">;
  /** As `hatloop ls` shows it: the row's status, or what the fleet knows (queued, dead-lettered, interrupted). */
  status: string;
  worker: string | null;
  repo: string | null;
  priority: number | null;
  /** The newest event: when, and its line (describeEvent); null before the first. */
  lastEvent: { at: Date; text: string } | null;
}

export interface Totals {
  /** What the sessions created today, this week (from Monday) and ever cost, the server's local time. */
  today: Tally;
  week: Tally;
  all: Tally;
  byStatus: Record<string, number>;
}

export interface Tally {
  sessions: number;
  costUsd: number;
}

export interface WorkerRow {
  name: string;
  host: string;
  pid: number;
  concurrency: number;
  /** The sessions it runs now. */
  running: string[];
  startedAt: Date;
  heartbeatAt: Date;
  state: "running" | "draining" | "lost" | "stopped";
  /** Sessions it took over from another runner. */
  takeovers: number;
}

export interface QueueSummary {
  queued: number;
  active: number;
  retrying: number;
  deadLettered: SessionRow[];
  /** Recurring tasks (hatloop schedule); `next`: the next firing, null when none is left. */
  schedules: Array<{ name: string; cron: string; task: string; repo: string; next: Date | null }>;
}

export interface CheckpointSummary {
  seq: number;
  reason: string;
  iteration: number;
  gitCommit: string | null;
  createdAt: Date;
}

export interface SessionDetail {
  row: SessionRow;
  checklist: ChecklistItem[];
  /** The latest handoff as Markdown, or null before the first checkpoint. */
  handoff: string | null;
  checkpoints: CheckpointSummary[];
}

export interface SessionSeries {
  /** Cumulative dollars, by time. */
  cost: Array<{ at: number; costUsd: number }>;
  /** The context's size against its window after each iteration. */
  gauge: Array<{ at: number; iteration: number; tokens: number; window: number }>;
  compactions: Array<{ at: number; iteration: number; tokensBefore: number; tokensAfter: number }>;
}

/** A loop event as stored: its id orders it among every session's events. */
export interface StoredLoopEvent {
  id: number;
  event: LoopEvent;
}

export type ConsoleAction =
  | { kind: "stop"; sessionId: string }
  | { kind: "resume"; sessionId: string }
  | { kind: "answer"; sessionId: string; answer: string }
  | { kind: "raise-budget"; sessionId: string; raise: Partial<Budgets> }
  | { kind: "retry"; sessionId: string }
  | { kind: "rerun"; sessionId: string };

export interface ActionResult {
  ok: boolean;
  /** One line for the person: what was done, or why not. */
  message: string;
  /** The session the action made (rerun). */
  sessionId?: string;
}

export interface ConsoleBackend {
  /** The sessions that pass `query`, newest first, as a person sees them. */
  sessions(query: SessionQuery): Promise<SessionRow[]>;
  /** What the sessions cost, and how many there are in each status. */
  totals(): Promise<Totals>;
  /** A session by id or unique id prefix; null when none matches. */
  session(id: string): Promise<SessionDetail | null>;
  /** A session's events after `afterId` (0: from its first), oldest first, at most `limit`. */
  events(sessionId: string, afterId: number, limit: number): Promise<StoredLoopEvent[]>;
  /** The newest `limit` events of a session, oldest first. */
  recentEvents(sessionId: string, limit: number): Promise<StoredLoopEvent[]>;
  /** What the charts draw, from the session's usage, gauge and compaction events. */
  series(sessionId: string): Promise<SessionSeries>;
  /** A tool call of `iteration`, its input and whole result, as stored (secrets redacted); null when not found. */
  toolResult(sessionId: string, iteration: number, toolUseId: string): Promise<string | null>;
  /** The diff a checkpoint's commit made (against its parent); null when it cannot be read here. */
  diff(sessionId: string, commit: string): Promise<string | null>;
  /** Workers and the queue; null without a fleet (the embedded database). */
  fleet(): Promise<{ workers: WorkerRow[]; queue: QueueSummary } | null>;
  act(action: ConsoleAction): Promise<ActionResult>;
  /** The id of the newest event of any session. */
  lastEventId(): Promise<number>;
  /**
   * Every session's events after `afterId` as they are stored, in batches, until `signal` aborts:
   * one follower feeds every open page.
   */
  follow(afterId: number, onEvents: (events: StoredLoopEvent[]) => void, signal: AbortSignal): Promise<void>;
}
