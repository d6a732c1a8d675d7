import type { Message } from "@hatloop/context";
import type { ChecklistStatus, CheckpointReason, Question, SessionStatus, Usage, Verdict } from "../shapes.js";
import { shortId } from "../text/format.js";

// The store port: everything the loop, the CLI and the UI need from persistence. `db/` implements it
// over drizzle; tests may implement it in memory. No method needs a transaction: every write is one
// statement, so the embedded database can be shared between processes through a query proxy. A
// runner's writes are fenced by its session lease (see fenced()), checked inside the same statement.

export type { ChecklistStatus, CheckpointReason, Question, SessionStatus, Usage, Verdict } from "../shapes.js";

export interface Budgets {
  maxIterations: number | null;
  maxTokens: number | null;
  maxCostUsd: number | null;
  maxRuntimeMs: number | null;
}

export interface SessionRecord {
  id: string;
  task: string;
  title: string;
  repoPath: string;
  worktreePath: string;
  branch: string;
  baseCommit: string;
  headCommit: string | null;
  inPlace: boolean;
  hat: string;
  status: SessionStatus;
  stopReason: string | null;
  lastError: string | null;
  model: string;
  iteration: number;
  budgets: Budgets;
  usage: Usage;
  costUsd: number;
  runtimeMs: number;
  contextTokens: number;
  contextWindow: number;
  scratchpad: string;
  /** The agent's question (ask_user) until its answer is delivered to the loop; null otherwise. */
  question: Question | null;
  config: Record<string, unknown>;
  gateBaseline: unknown;
  pid: number | null;
  host: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  heartbeatAt: Date | null;
  /** The lease of the runner working on the session (see SessionStore.acquireLease). */
  lease: SessionLease;
}

export interface SessionLease {
  /** Raised by every acquisition: writes fenced with an older epoch are refused. */
  epoch: number;
  /** Who holds it, e.g. "host:pid" or a worker's name; null when released. */
  holder: string | null;
  expiresAt: Date | null;
}

export type NewSession = Pick<
  SessionRecord,
  "id" | "task" | "title" | "repoPath" | "worktreePath" | "branch" | "baseCommit" | "inPlace" | "hat" | "model" | "budgets"
> &
  Partial<Pick<SessionRecord, "status" | "config" | "contextWindow" | "pid" | "host" | "startedAt" | "gateBaseline">>;

export type SessionPatch = Partial<Omit<SessionRecord, "id" | "createdAt" | "updatedAt" | "task" | "repoPath" | "lease">>;

/**
 * A write refused because the session's lease moved on: another runner took the session over. The
 * runner that gets it must stop at once and write nothing more.
 */
export class LeaseLostError extends Error {
  constructor(readonly sessionId: string) {
    super(`session ${shortId(sessionId)} was taken over by another runner (its lease moved on); this runner stops and writes nothing more`);
  }
}

export interface SessionStore {
  create(session: NewSession): Promise<SessionRecord>;
  get(id: string): Promise<SessionRecord | null>;
  /** A full id or a unique prefix of one; `ambiguous` lists the candidates. */
  resolve(idOrPrefix: string): Promise<{ session: SessionRecord } | { ambiguous: string[] } | null>;
  list(options?: { limit?: number; status?: SessionStatus[] }): Promise<SessionRecord[]>;
  update(id: string, patch: SessionPatch): Promise<void>;
  /** Adds to the usage totals without a read-modify-write race. */
  addUsage(id: string, usage: Usage, costUsd: number): Promise<void>;
  delete(id: string): Promise<void>;
  /**
   * Takes the session's lease for `holder` for `ttlMs` (raising its epoch) when it is free: never
   * taken, released, expired, or held by `takeOverFrom` (a holder known to be dead). Returns the new
   * epoch, or null when someone else holds it. One statement, so two runners cannot both succeed.
   */
  acquireLease(id: string, holder: string, ttlMs: number, options?: { takeOverFrom?: string }): Promise<number | null>;
  /** Extends a lease still held at `epoch`; false when it was lost. */
  renewLease(id: string, epoch: number, ttlMs: number): Promise<boolean>;
  /** Gives the lease up (at the end of a run), if still held at `epoch`. */
  releaseLease(id: string, epoch: number): Promise<void>;
  /**
   * Answers the session's open question, from any process (not fenced: the person answering is not
   * a runner). One statement: of two answers given at once, the first wins.
   */
  answer(id: string, answer: string, answeredBy: string): Promise<AnswerResult>;
}

export type AnswerResult = "answered" | "no-session" | "no-question" | "already-answered";

/**
 * conversation: said by the model or the user; injected: written by hatloop (summaries, notes);
 * archived: an answer taken out of the conversation (refused, or redone with a larger output
 * limit), kept for the record and never sent again.
 */
export type MessageKind = "conversation" | "injected" | "archived";

export interface NewMessage {
  seq: number;
  iteration: number;
  hat: string;
  kind: MessageKind;
  message: Message;
  tokenEstimate: number;
}

export interface StoredMessage extends NewMessage {
  createdAt: Date;
}

export interface SearchHit {
  seq: number;
  kind: MessageKind;
  iteration: number;
  role: Message["role"];
  rank: number;
  message: Message;
}

export interface MessageStore {
  /**
   * Append-only; a seq that already exists is an error, never an overwrite. Returns the messages as
   * stored, in the order given: what reading them back gives (secrets redacted, see redactingStore),
   * which is what the loop keeps in the live context.
   */
  append(sessionId: string, messages: NewMessage[]): Promise<NewMessage[]>;
  /** Messages with fromSeq <= seq <= toSeq, in order. */
  range(sessionId: string, fromSeq: number, toSeq: number): Promise<StoredMessage[]>;
  bySeqs(sessionId: string, seqs: number[]): Promise<StoredMessage[]>;
  lastSeq(sessionId: string): Promise<number>;
  count(sessionId: string): Promise<number>;
  /** Full-text search over every string in the stored messages (Postgres tsvector). */
  search(
    sessionId: string,
    query: string,
    options?: { limit?: number; excludeSeqs?: number[]; kinds?: MessageKind[] },
  ): Promise<SearchHit[]>;
}

export interface NewCheckpoint {
  reason: CheckpointReason;
  iteration: number;
  hat: string;
  scratchpad: string;
  /** References into the stored messages; the shape belongs to the loop. */
  context: unknown;
  contextTokens: number;
  lastError: string | null;
  failedAt: string | null;
  recoveryHint: string | null;
  usage: unknown;
  state: unknown;
  handoff: unknown;
  gitCommit: string | null;
}

export interface CheckpointRecord extends NewCheckpoint {
  seq: number;
  createdAt: Date;
}

export interface CheckpointStore {
  /** Writes a new immutable checkpoint with the next seq of the session. */
  append(sessionId: string, checkpoint: NewCheckpoint): Promise<CheckpointRecord>;
  latest(sessionId: string): Promise<CheckpointRecord | null>;
  get(sessionId: string, seq: number): Promise<CheckpointRecord | null>;
  /** Newest first. */
  list(sessionId: string, options?: { limit?: number; beforeSeq?: number }): Promise<CheckpointRecord[]>;
  /** Deletes all but the newest `keepLast`, the first, and those with a reason in `keepReasons`. */
  prune(sessionId: string, keepLast: number, keepReasons: CheckpointReason[]): Promise<number>;
}

export interface NewEvent {
  iteration: number;
  type: string;
  payload: unknown;
  /** The event schema version (EVENT_VERSION) it was written with; absent: unversioned. */
  version?: number;
}

/** A stored event as it comes back: unchecked until parsed (see readStoredEvents). */
export interface StoredEvent {
  id: number;
  sessionId: string;
  iteration: number;
  type: string;
  payload: unknown;
  /** null: written before events were versioned, which reads as version 1. */
  version: number | null;
  createdAt: Date;
}

export interface EventStore {
  append(sessionId: string, events: NewEvent[]): Promise<void>;
  /** Events with id > afterId, oldest first. */
  after(sessionId: string, afterId: number, limit?: number): Promise<StoredEvent[]>;
  /** The newest `limit` events, oldest first. */
  tail(sessionId: string, limit: number): Promise<StoredEvent[]>;
  /** Events of every session with id > afterId, oldest first: one follower for many sessions (the web console). */
  since(afterId: number, limit?: number): Promise<StoredEvent[]>;
  /** The id of the newest event of any session; 0 when there is none. */
  lastId(): Promise<number>;
  /**
   * The newest event of each of these sessions (none for a session without events); with `types`,
   * the newest of those types (one query for many sessions: what a list of them shows).
   */
  latest(sessionIds: readonly string[], types?: readonly string[]): Promise<StoredEvent[]>;
  /** The newest `limit` events of a session of these types, oldest first (what a chart draws). */
  ofTypes(sessionId: string, types: readonly string[], limit: number): Promise<StoredEvent[]>;
  /**
   * Calls `onAppend` soon after events of the session (null: of any session) are appended by any process, where the
   * database can push that (Postgres LISTEN/NOTIFY); absent elsewhere, and watchers poll.
   */
  subscribe?(sessionId: string | null, onAppend: () => void): Promise<() => Promise<void>>;
}

export interface ChecklistItem {
  id: string;
  description: string;
  status: ChecklistStatus;
  reason: string | null;
}

export interface ChecklistStore {
  /** Adds items that are new and keeps the status of those already known. */
  upsert(sessionId: string, items: Array<Pick<ChecklistItem, "id" | "description">>): Promise<void>;
  setStatus(sessionId: string, itemId: string, status: ChecklistStatus, reason: string | null): Promise<boolean>;
  list(sessionId: string): Promise<ChecklistItem[]>;
}

export interface NewMemory {
  sessionId: string | null;
  repoPath: string;
  kind: "memory" | "fact";
  type: string;
  key: string | null;
  content: string;
  confidence: number;
  source: string;
  iteration: number | null;
}

export interface MemoryRecord extends NewMemory {
  id: number;
  status: "active" | "superseded";
  supersededBy: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface MemoryStore {
  add(memory: NewMemory): Promise<MemoryRecord>;
  updateContent(id: number, content: string, confidence?: number): Promise<void>;
  /** Marks `id` superseded by `byId`; the old row stays for history. */
  supersede(id: number, byId: number): Promise<void>;
  listActive(repoPath: string, options?: { kind?: "memory" | "fact"; limit?: number }): Promise<MemoryRecord[]>;
  bySession(sessionId: string): Promise<MemoryRecord[]>;
}

/** One grading of the acceptance criteria at task_complete: a verdict per criterion, and what the grader cost. */
export interface NewGrade {
  /** 1-based: the session's first grading is round 1. */
  round: number;
  iteration: number;
  /** Every criterion met: the task completed with this grading. */
  satisfied: boolean;
  verdicts: Verdict[];
  model: string;
  usage: Usage;
  costUsd: number;
}

export interface GradeRecord extends NewGrade {
  createdAt: Date;
}

export interface GradeStore {
  append(sessionId: string, grade: NewGrade): Promise<GradeRecord>;
  /** Oldest first. */
  list(sessionId: string): Promise<GradeRecord[]>;
}

export interface Store {
  sessions: SessionStore;
  messages: MessageStore;
  checkpoints: CheckpointStore;
  events: EventStore;
  checklist: ChecklistStore;
  memories: MemoryStore;
  grades: GradeStore;
  /** Where the data lives, for `hatloop db path` and error messages. */
  readonly location: string;
  /**
   * The same store, with every write about `sessionId` fenced by the lease `epoch` (the runner's):
   * once another runner has taken the lease, such a write throws LeaseLostError and changes nothing.
   */
  fenced(sessionId: string, epoch: number): Store;
  close(): Promise<void>;
}
