import type {
  ChecklistItem,
  CheckpointRecord,
  MemoryRecord,
  NewSession,
  SessionRecord,
  Store,
  StoredEvent,
  StoredMessage,
} from "./port.js";

// The store port in memory: for unit tests and benchmarks that exercise the loop and context
// management without a database (the real stores are tested in db/ and end to end). Search is a
// plain word match (all words, or any with "a OR b"), not Postgres full-text search.

export function memoryStore(): Store & { data: { sessions: Map<string, SessionRecord>; messages: Map<string, StoredMessage[]>; checkpoints: Map<string, CheckpointRecord[]>; events: StoredEvent[] } } {
  const sessions = new Map<string, SessionRecord>();
  const messages = new Map<string, StoredMessage[]>();
  const checkpoints = new Map<string, CheckpointRecord[]>();
  const events: StoredEvent[] = [];
  const checklist = new Map<string, ChecklistItem[]>();
  const memories: MemoryRecord[] = [];
  const list = <T>(map: Map<string, T[]>, id: string) => map.get(id) ?? map.set(id, []).get(id)!;
  return {
    data: { sessions, messages, checkpoints, events },
    location: "memory",
    close: async () => {},
    sessions: {
      async create(s: NewSession) {
        const now = new Date();
        const record: SessionRecord = {
          status: "pending", config: {}, contextWindow: 200_000, pid: null, host: null, startedAt: null, gateBaseline: null,
          ...s,
          headCommit: null, stopReason: null, lastError: null, iteration: 0,
          usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
          costUsd: 0, runtimeMs: 0, contextTokens: 0, scratchpad: "",
          createdAt: now, updatedAt: now, finishedAt: null, heartbeatAt: null,
        };
        sessions.set(s.id, record);
        return { ...record };
      },
      async get(id) {
        const s = sessions.get(id);
        return s ? { ...s } : null;
      },
      async resolve(prefix) {
        const found = [...sessions.values()].filter((s) => s.id.startsWith(prefix));
        if (found.length === 0) return null;
        return found.length === 1 ? { session: { ...found[0]! } } : { ambiguous: found.map((s) => s.id) };
      },
      async list() {
        return [...sessions.values()].reverse();
      },
      async update(id, patch) {
        const s = sessions.get(id)!;
        Object.assign(s, patch, { updatedAt: new Date() });
      },
      async addUsage(id, u, cost) {
        const s = sessions.get(id)!;
        s.usage = {
          inputTokens: s.usage.inputTokens + u.inputTokens,
          outputTokens: s.usage.outputTokens + u.outputTokens,
          cacheReadTokens: s.usage.cacheReadTokens + u.cacheReadTokens,
          cacheWriteTokens: s.usage.cacheWriteTokens + u.cacheWriteTokens,
        };
        s.costUsd += cost;
      },
      async delete(id) {
        sessions.delete(id);
      },
    },
    messages: {
      async append(id, batch) {
        const log = list(messages, id);
        for (const m of batch) {
          if (log.some((x) => x.seq === m.seq)) throw new Error(`duplicate seq ${m.seq}`);
          log.push({ ...structuredClone(m), createdAt: new Date() });
        }
        log.sort((a, b) => a.seq - b.seq);
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
        // Like websearch_to_tsquery: words must all match, or any of them with "a OR b".
        const anyOf = / OR /.test(query);
        const words = query.toLowerCase().split(/\W+/).filter((w) => w.length > 2 && w !== "or");
        const has = (m: StoredMessage, w: string) => JSON.stringify(m.message.content).toLowerCase().includes(w);
        return list(messages, id)
          .filter((m) => !options.excludeSeqs?.includes(m.seq) && (!options.kinds || options.kinds.includes(m.kind)))
          .filter((m) => (anyOf ? words.some((w) => has(m, w)) : words.every((w) => has(m, w))))
          .slice(0, options.limit ?? 5)
          .map((m) => ({ seq: m.seq, kind: m.kind, iteration: m.iteration, role: m.message.role, rank: 1, message: structuredClone(m.message) }));
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
        const log = list(checkpoints, id);
        const keep = new Set([log[0]?.seq, ...log.slice(-keepLast).map((c) => c.seq)]);
        const next = log.filter((c) => keep.has(c.seq) || keepReasons.includes(c.reason));
        checkpoints.set(id, next);
        return log.length - next.length;
      },
    },
    events: {
      async append(id, batch) {
        for (const e of batch) events.push({ ...e, id: events.length + 1, sessionId: id, createdAt: new Date() });
      },
      async after(id, afterId, limit = 500) {
        return events.filter((e) => e.sessionId === id && e.id > afterId).slice(0, limit);
      },
      async tail(id, limit) {
        return events.filter((e) => e.sessionId === id).slice(-limit);
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
        const record: MemoryRecord = { ...m, id: memories.length + 1, status: "active", supersededBy: null, createdAt: new Date(), updatedAt: new Date() };
        memories.push(record);
        return { ...record };
      },
      async updateContent(id, content, confidence) {
        const m = memories.find((x) => x.id === id)!;
        m.content = content;
        if (confidence !== undefined) m.confidence = confidence;
      },
      async supersede(id, byId) {
        Object.assign(memories.find((x) => x.id === id)!, { status: "superseded", supersededBy: byId });
      },
      async listActive(repo, options = {}) {
        return memories.filter((m) => m.repoPath === repo && m.status === "active" && (!options.kind || m.kind === options.kind)).slice(0, options.limit ?? 50);
      },
      async bySession(id) {
        return memories.filter((m) => m.sessionId === id);
      },
    },
  };
}
