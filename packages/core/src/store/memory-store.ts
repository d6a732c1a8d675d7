import { redactingStore } from "../redaction/redacting-store.js";
import {
  LeaseLostError,
  type ChecklistItem,
  type CheckpointRecord,
  type GradeRecord,
  type MemoryRecord,
  type NewSession,
  type SessionRecord,
  type Store,
  type StoredEvent,
  type StoredMessage,
} from "./port.js";
import { matchRank } from "./memory-search.js";

// The store port in memory: for unit tests and benchmarks that exercise the loop and context
// management without a database. It keeps the database's contract (test-support/store-contract.ts
// runs on both): records are copies, a duplicate is refused, a batch is written whole or not at all,
// deleting a session deletes what belongs to it, and every write is redacted as openStore's are
// (redactingStore), so a loop test sees what the database would give the loop. Search approximates
// Postgres full-text search (memory-search.ts).

export type InMemoryStore = Store & {
  /** What is stored (redacted), for tests to look at directly. */
  data: {
    sessions: Map<string, SessionRecord>;
    messages: Map<string, StoredMessage[]>;
    checkpoints: Map<string, CheckpointRecord[]>;
    events: StoredEvent[];
  };
};

/** `redact: false` is for benchmarks that take their input as already redacted (docs/benchmarks.md). */
export function memoryStore(options: { redact?: boolean } = {}): InMemoryStore {
  const store = unredactedMemoryStore();
  return options.redact === false ? store : redactingStore(store);
}

function unredactedMemoryStore(): InMemoryStore {
  const sessions = new Map<string, SessionRecord>();
  const messages = new Map<string, StoredMessage[]>();
  const checkpoints = new Map<string, CheckpointRecord[]>();
  const events: StoredEvent[] = [];
  const checklist = new Map<string, ChecklistItem[]>();
  const memories: MemoryRecord[] = [];
  const grades = new Map<string, GradeRecord[]>();
  let lastEventId = 0;
  // Like the database's now() from one statement to the next, each write's time is later than the last.
  let lastTime = 0;
  const now = () => new Date((lastTime = Math.max(Date.now(), lastTime + 1)));
  const list = <T>(map: Map<string, T[]>, id: string) => map.get(id) ?? map.set(id, []).get(id)!;
  const store: InMemoryStore = {
    data: { sessions, messages, checkpoints, events },
    location: "memory",
    close: async () => {},
    fenced: (sessionId, epoch) => fencedView(store, sessionId, () => sessions.get(sessionId)?.lease.epoch === epoch),
    sessions: {
      async create(s: NewSession) {
        if (sessions.has(s.id)) throw new Error(`duplicate key value violates unique constraint "sessions_pkey": session ${s.id} exists`);
        const at = now();
        const record: SessionRecord = {
          status: "pending",
          config: {},
          contextWindow: 200_000,
          pid: null,
          host: null,
          startedAt: null,
          gateBaseline: null,
          ...structuredClone(s),
          headCommit: null,
          stopReason: null,
          lastError: null,
          iteration: 0,
          usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
          costUsd: 0,
          runtimeMs: 0,
          contextTokens: 0,
          scratchpad: "",
          question: null,
          createdAt: at,
          updatedAt: at,
          finishedAt: null,
          heartbeatAt: null,
          lease: { epoch: 0, holder: null, expiresAt: null },
        };
        sessions.set(s.id, record);
        return structuredClone(record);
      },
      async get(id) {
        const s = sessions.get(id);
        return s ? structuredClone(s) : null;
      },
      async resolve(prefix) {
        const exact = sessions.get(prefix);
        if (exact) return { session: structuredClone(exact) };
        const found = [...sessions.values()].filter((s) => s.id.startsWith(prefix)).slice(0, 10);
        if (found.length === 0) return null;
        return found.length === 1 ? { session: structuredClone(found[0]!) } : { ambiguous: found.map((s) => s.id) };
      },
      async list(options = {}) {
        return [...sessions.values()]
          .filter((s) => !options.status?.length || options.status.includes(s.status))
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
          .slice(0, options.limit ?? 100)
          .map((s) => structuredClone(s));
      },
      async update(id, patch) {
        const s = sessions.get(id);
        if (s) Object.assign(s, structuredClone(patch), { updatedAt: now() });
      },
      async addUsage(id, u, cost) {
        const s = sessions.get(id);
        if (!s) return;
        s.usage = {
          inputTokens: s.usage.inputTokens + u.inputTokens,
          outputTokens: s.usage.outputTokens + u.outputTokens,
          cacheReadTokens: s.usage.cacheReadTokens + u.cacheReadTokens,
          cacheWriteTokens: s.usage.cacheWriteTokens + u.cacheWriteTokens,
        };
        s.costUsd += cost;
        s.updatedAt = now();
      },
      async delete(id) {
        // As the database's foreign keys: what belongs to the session goes, its memories stay unowned.
        sessions.delete(id);
        for (const map of [messages, checkpoints, checklist, grades]) map.delete(id);
        events.splice(0, events.length, ...events.filter((e) => e.sessionId !== id));
        for (const m of memories) if (m.sessionId === id) m.sessionId = null;
      },
      async acquireLease(id, holder, ttlMs, options = {}) {
        const s = sessions.get(id);
        const now = Date.now();
        if (!s) return null;
        const free =
          s.lease.expiresAt === null ||
          s.lease.expiresAt.getTime() < now ||
          (options.takeOverFrom !== undefined && s.lease.holder === options.takeOverFrom);
        if (!free) return null;
        s.lease = { epoch: s.lease.epoch + 1, holder, expiresAt: new Date(now + ttlMs) };
        s.heartbeatAt = new Date(now);
        return s.lease.epoch;
      },
      async renewLease(id, epoch, ttlMs) {
        const s = sessions.get(id);
        if (s?.lease.epoch !== epoch) return false;
        s.lease = { ...s.lease, expiresAt: new Date(Date.now() + ttlMs) };
        s.heartbeatAt = new Date();
        return true;
      },
      async releaseLease(id, epoch) {
        const s = sessions.get(id);
        if (s?.lease.epoch === epoch) s.lease = { epoch, holder: null, expiresAt: null };
      },
      async answer(id, answer, answeredBy) {
        const s = sessions.get(id);
        if (!s) return "no-session";
        if (!s.question) return "no-question";
        if (s.question.answer !== null) return "already-answered";
        s.question = { ...s.question, answer, answeredAt: now().toISOString(), answeredBy };
        s.updatedAt = now();
        return "answered";
      },
    },
    messages: {
      async append(id, batch) {
        // One statement in the database: a duplicate anywhere refuses the whole batch.
        const log = list(messages, id);
        const seqs = new Set(log.map((x) => x.seq));
        for (const m of batch) {
          if (seqs.has(m.seq)) throw new Error(`duplicate key value violates unique constraint "messages_session_seq_uq": seq ${m.seq}`);
          seqs.add(m.seq);
        }
        const at = now();
        for (const m of batch) log.push({ ...structuredClone(m), createdAt: at });
        log.sort((a, b) => a.seq - b.seq);
        return structuredClone(batch);
      },
      async range(id, from, to) {
        return structuredClone(list(messages, id).filter((m) => m.seq >= from && m.seq <= to));
      },
      async bySeqs(id, seqs) {
        return structuredClone(list(messages, id).filter((m) => seqs.includes(m.seq)));
      },
      async lastSeq(id) {
        return list(messages, id).at(-1)?.seq ?? 0;
      },
      async count(id) {
        return list(messages, id).length;
      },
      async search(id, query, options = {}) {
        return list(messages, id)
          .filter((m) => !options.excludeSeqs?.includes(m.seq) && (!options.kinds?.length || options.kinds.includes(m.kind)))
          .map((m) => ({ m, rank: matchRank(m.message.content, query) }))
          .filter(({ rank }) => rank > 0)
          .sort((a, b) => b.rank - a.rank || b.m.seq - a.m.seq)
          .slice(0, options.limit ?? 5)
          .map(({ m, rank }) => ({
            seq: m.seq,
            kind: m.kind,
            iteration: m.iteration,
            role: m.message.role,
            rank,
            message: structuredClone(m.message),
          }));
      },
    },
    checkpoints: {
      async append(id, cp) {
        const log = list(checkpoints, id);
        const record = { ...structuredClone(cp), seq: (log.at(-1)?.seq ?? 0) + 1, createdAt: new Date() };
        log.push(record);
        return structuredClone(record);
      },
      async latest(id) {
        return structuredClone(list(checkpoints, id).at(-1) ?? null);
      },
      async get(id, seq) {
        return structuredClone(list(checkpoints, id).find((c) => c.seq === seq) ?? null);
      },
      async list(id, options = {}) {
        const all = [...list(checkpoints, id)].reverse().filter((c) => options.beforeSeq === undefined || c.seq < options.beforeSeq);
        return structuredClone(all.slice(0, options.limit ?? 1000));
      },
      async prune(id, keepLast, keepReasons) {
        // As the database: the first, the newest `keepLast` and those of a kept reason stay.
        const log = list(checkpoints, id);
        const cutoff = log.at(-1 - keepLast)?.seq ?? 0;
        const next = log.filter((c) => c.seq === log[0]?.seq || c.seq > cutoff || keepReasons.includes(c.reason));
        checkpoints.set(id, next);
        return log.length - next.length;
      },
    },
    events: {
      async append(id, batch) {
        for (const e of batch)
          events.push({
            iteration: e.iteration,
            type: e.type,
            payload: structuredClone(e.payload),
            version: e.version ?? null,
            id: ++lastEventId,
            sessionId: id,
            createdAt: new Date(),
          });
      },
      async after(id, afterId, limit = 500) {
        return structuredClone(events.filter((e) => e.sessionId === id && e.id > afterId).slice(0, limit));
      },
      async tail(id, limit) {
        return structuredClone(events.filter((e) => e.sessionId === id).slice(-limit));
      },
      async since(afterId, limit = 500) {
        return structuredClone(events.filter((e) => e.id > afterId).slice(0, limit));
      },
      async lastId() {
        return events.at(-1)?.id ?? 0;
      },
      async latest(ids, types) {
        const wanted = (e: StoredEvent) => types === undefined || types.includes(e.type);
        return structuredClone(ids.flatMap((id) => events.findLast((e) => e.sessionId === id && wanted(e)) ?? []));
      },
      async ofTypes(id, types, limit) {
        return structuredClone(events.filter((e) => e.sessionId === id && types.includes(e.type)).slice(-limit));
      },
    },
    checklist: {
      async upsert(id, items) {
        const log = list(checklist, id);
        for (const item of items) {
          const found = log.find((i) => i.id === item.id);
          if (found) found.description = item.description;
          else log.push({ ...item, status: "pending", reason: null });
        }
      },
      async setStatus(id, itemId, status, reason) {
        const found = list(checklist, id).find((i) => i.id === itemId);
        if (!found) return false;
        Object.assign(found, { status, reason });
        return true;
      },
      async list(id) {
        return structuredClone(list(checklist, id));
      },
    },
    memories: {
      async add(m) {
        const at = now();
        const record: MemoryRecord = {
          ...structuredClone(m),
          id: memories.length + 1,
          status: "active",
          supersededBy: null,
          createdAt: at,
          updatedAt: at,
        };
        memories.push(record);
        return structuredClone(record);
      },
      async updateContent(id, content, confidence) {
        const m = memories.find((x) => x.id === id);
        if (!m) return;
        m.content = content;
        if (confidence !== undefined) m.confidence = confidence;
        m.updatedAt = now();
      },
      async supersede(id, byId) {
        const m = memories.find((x) => x.id === id);
        if (m) Object.assign(m, { status: "superseded", supersededBy: byId, updatedAt: now() });
      },
      async listActive(repo, options = {}) {
        return memories
          .filter((m) => m.repoPath === repo && m.status === "active" && (!options.kind || m.kind === options.kind))
          .sort((a, b) => b.confidence - a.confidence || b.updatedAt.getTime() - a.updatedAt.getTime() || b.id - a.id)
          .slice(0, options.limit ?? 50)
          .map((m) => structuredClone(m));
      },
      async bySession(id) {
        return structuredClone(memories.filter((m) => m.sessionId === id).reverse());
      },
    },
    grades: {
      async append(id, grade) {
        const log = list(grades, id);
        if (log.some((g) => g.round === grade.round))
          throw new Error(`duplicate key value violates unique constraint "grades_pkey": round ${grade.round} exists`);
        const record: GradeRecord = { ...structuredClone(grade), createdAt: now() };
        log.push(record);
        return structuredClone(record);
      },
      async list(id) {
        return structuredClone(list(grades, id));
      },
    },
  };
  return store;
}

/** Writes about the fenced session, checked and done in one synchronous step (no await between). */
const FENCED_WRITES: Record<string, string[]> = {
  sessions: ["update", "addUsage"],
  messages: ["append"],
  checkpoints: ["append"],
  events: ["append"],
  checklist: ["upsert", "setStatus"],
  grades: ["append"],
};

function fencedView<S extends Store>(store: S, sessionId: string, holds: () => boolean): Store {
  const view: Record<string, unknown> = { ...(store as Store), close: async () => {} };
  for (const [name, methods] of Object.entries(FENCED_WRITES)) {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the store methods are closures (memoryStore builds them without this); each is called as sub[method]
    const sub = store[name as keyof Store] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const wrapped: Record<string, unknown> = { ...sub };
    for (const method of methods) {
      wrapped[method] = (id: unknown, ...rest: unknown[]) => {
        if (id === sessionId && !holds()) return Promise.reject(new LeaseLostError(sessionId));
        return sub[method]!(id, ...rest);
      };
    }
    view[name] = wrapped;
  }
  return view as unknown as Store;
}
