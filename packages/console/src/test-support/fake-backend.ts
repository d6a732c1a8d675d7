import { EVENT_VERSION, type LoopEvent, type SessionRecord } from "@hatloop/core";
import type { ActionResult, ConsoleAction, ConsoleBackend, SessionRow, StoredLoopEvent, WorkerRow, QueueSummary } from "../backend.js";
import { matchesQuery } from "../query.js";

// A console backend in memory, for the console's own tests: sessions and events set by the test,
// events pushed to followers as they are added, actions recorded.

export function sessionRecord(id: string, fields: Partial<SessionRecord> = {}): SessionRecord {
  const at = new Date(0);
  return {
    id,
    task: `task of ${id}`,
    title: `title of ${id}`,
    repoPath: "/r",
    worktreePath: "/r",
    branch: `hatloop/${id.slice(0, 8)}`,
    baseCommit: "b".repeat(40),
    headCommit: null,
    inPlace: false,
    status: "running",
    stopReason: null,
    lastError: null,
    question: null,
    hat: "creator",
    iteration: 3,
    model: "claude-sonnet-4-5",
    budgets: { maxIterations: 30, maxTokens: null, maxCostUsd: 5, maxRuntimeMs: null },
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0.42,
    runtimeMs: 65_000,
    contextTokens: 12_000,
    contextWindow: 200_000,
    scratchpad: "",
    config: {},
    gateBaseline: null,
    pid: null,
    host: null,
    createdAt: at,
    updatedAt: at,
    startedAt: at,
    finishedAt: null,
    heartbeatAt: at,
    lease: { holder: null, epoch: 0, expiresAt: null },
    ...fields,
  };
}

export class FakeBackend implements ConsoleBackend {
  readonly rows = new Map<string, SessionRow>();
  readonly stored: StoredLoopEvent[] = [];
  readonly actions: ConsoleAction[] = [];
  workers: WorkerRow[] | null = null;
  /** Called once a sessions read has its rows, before they are returned: a change made here comes after the read. */
  afterSessionsRead: (() => void) | null = null;
  private followers: Array<(events: StoredLoopEvent[]) => void> = [];

  addSession(id: string, fields: Partial<SessionRecord> = {}, row: Partial<SessionRow> = {}): SessionRow {
    const session = sessionRecord(id, fields);
    const full: SessionRow = { session, status: session.status, worker: null, repo: null, priority: null, lastEvent: null, ...row };
    this.rows.set(id, full);
    return full;
  }

  /** Stores events of a session and pushes them to the followers. */
  emit(sessionId: string, ...events: Array<Pick<LoopEvent, "type" | "data"> & { iteration?: number }>): StoredLoopEvent[] {
    const added = events.map((e): StoredLoopEvent => {
      const event = { v: EVENT_VERSION, sessionId, iteration: e.iteration ?? 1, ts: Date.now(), type: e.type, data: e.data } as LoopEvent;
      return { id: this.stored.length + 1, event };
    });
    this.stored.push(...added);
    for (const follower of this.followers) follower(added);
    return added;
  }

  async sessions(query: Parameters<ConsoleBackend["sessions"]>[0]) {
    const all = [...this.rows.values()].filter((row) => !query.ids || query.ids.includes(row.session.id));
    // Copies: the rows as they were when read, whatever changes after.
    const read = all
      .filter((row) => matchesQuery(row, query))
      .slice(0, query.limit ?? 500)
      .map((row) => structuredClone(row));
    this.afterSessionsRead?.();
    return read;
  }

  async totals() {
    const byStatus: Record<string, number> = {};
    for (const row of this.rows.values()) byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
    const tally = (sessions: number, costUsd: number) => ({ sessions, costUsd });
    return { today: tally(1, 1.5), week: tally(3, 4.25), all: tally(this.rows.size, 10), byStatus };
  }

  async session(id: string) {
    const row = [...this.rows.values()].find((r) => r.session.id.startsWith(id));
    return row ? { row, checklist: [], handoff: null, checkpoints: [] } : null;
  }

  async events(sessionId: string, afterId: number, limit: number) {
    return this.stored.filter((s) => s.event.sessionId === sessionId && s.id > afterId).slice(0, limit);
  }

  async recentEvents(sessionId: string, limit: number) {
    return this.stored.filter((s) => s.event.sessionId === sessionId).slice(-limit);
  }

  async series() {
    return { cost: [], gauge: [], compactions: [] };
  }

  async toolResult() {
    return "the whole result";
  }

  async diff() {
    return "diff --git a/x b/x\n@@ -1 +1 @@\n-old\n+new";
  }

  async fleet(): Promise<{ workers: WorkerRow[]; queue: QueueSummary } | null> {
    return this.workers && { workers: this.workers, queue: { queued: 1, active: 2, retrying: 0, deadLettered: [], schedules: [] } };
  }

  async act(action: ConsoleAction): Promise<ActionResult> {
    this.actions.push(action);
    return { ok: true, message: `${action.kind} done` };
  }

  async lastEventId() {
    return this.stored.length;
  }

  async follow(_afterId: number, onEvents: (events: StoredLoopEvent[]) => void, signal: AbortSignal) {
    this.followers.push(onEvents);
    await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
    this.followers = this.followers.filter((f) => f !== onEvents);
  }
}
