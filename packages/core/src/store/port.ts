import type { Message } from "@hatloop/context";

// The store port: everything the loop, the CLI and the UI need from persistence. `db/` implements it
// over drizzle; tests may implement it in memory. No method needs a transaction: every write is one
// statement, so the embedded database can be shared between processes through a query proxy.

export type SessionStatus = "pending" | "running" | "paused" | "completed" | "failed" | "stopped";

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

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
  config: Record<string, unknown>;
  gateBaseline: unknown;
  pid: number | null;
  host: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  heartbeatAt: Date | null;
}

export type NewSession = Pick<
  SessionRecord,
  "id" | "task" | "title" | "repoPath" | "worktreePath" | "branch" | "baseCommit" | "inPlace" | "hat" | "model" | "budgets"
> &
  Partial<Pick<SessionRecord, "status" | "config" | "contextWindow" | "pid" | "startedAt" | "gateBaseline">>;

export type SessionPatch = Partial<
  Omit<SessionRecord, "id" | "createdAt" | "updatedAt" | "task" | "repoPath">
>;

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
}

export type MessageKind = "conversation" | "injected";

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
  /** Append-only; a seq that already exists is an error, never an overwrite. */
  append(sessionId: string, messages: NewMessage[]): Promise<void>;
  /** Messages with fromSeq <= seq <= toSeq, in order. */
  range(sessionId: string, fromSeq: number, toSeq: number): Promise<StoredMessage[]>;
  bySeqs(sessionId: string, seqs: number[]): Promise<StoredMessage[]>;
  lastSeq(sessionId: string): Promise<number>;
  count(sessionId: string): Promise<number>;
  /** Full-text search over every string in the stored messages (Postgres tsvector). */
  search(sessionId: string, query: string, options?: { limit?: number; excludeSeqs?: number[]; kinds?: MessageKind[] }): Promise<SearchHit[]>;
}

export type CheckpointReason =
  | "start"
  | "interval"
  | "warn-threshold"
  | "compaction"
  | "hat-change"
  | "budget"
  | "failure"
  | "pause"
  | "completion";

export interface NewCheckpoint {
  reason: CheckpointReason;
  iteration: number;
  hat: string;
  scratchpad: string;
  /** References into the stored messages; the shape belongs to the loop. */
  context: unknown;
  contextTokens: number;
  summary: string | null;
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
}

export interface StoredEvent extends NewEvent {
  id: number;
  sessionId: string;
  createdAt: Date;
}

export interface EventStore {
  append(sessionId: string, events: NewEvent[]): Promise<void>;
  /** Events with id > afterId, oldest first. */
  after(sessionId: string, afterId: number, limit?: number): Promise<StoredEvent[]>;
  /** The newest `limit` events, oldest first. */
  tail(sessionId: string, limit: number): Promise<StoredEvent[]>;
  /**
   * Calls `onAppend` soon after events of the session are appended by any process, where the
   * database can push that (Postgres LISTEN/NOTIFY); absent elsewhere, and watchers poll.
   */
  subscribe?(sessionId: string, onAppend: () => void): Promise<() => Promise<void>>;
}

export type ChecklistStatus = "pending" | "in_progress" | "done" | "failed" | "skipped";

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

export interface Store {
  sessions: SessionStore;
  messages: MessageStore;
  checkpoints: CheckpointStore;
  events: EventStore;
  checklist: ChecklistStore;
  memories: MemoryStore;
  /** Where the data lives, for `hatloop db path` and error messages. */
  readonly location: string;
  close(): Promise<void>;
}
