import { memoryStore, type InMemoryStore, type SearchHit, type StoredMessage } from "@hatloop/core";
import { searchableText } from "../../util/message-text.js";

// The store behind the hatloop strategy: core's in-memory store, with a search that stands in for
// Postgres full-text search the way the real query ranks (more query words matched first, then the
// newest message), over text lower-cased once per message instead of once per query.

export function benchStore(): InMemoryStore {
  const store = memoryStore({ redact: false }); // the input is taken as already redacted
  const texts = new Map<string, Map<number, string>>();
  const append = store.messages.append.bind(store.messages);
  store.messages.append = async (sessionId, batch) => {
    const stored = await append(sessionId, batch);
    const index = texts.get(sessionId) ?? texts.set(sessionId, new Map()).get(sessionId)!;
    for (const m of stored) index.set(m.seq, searchableText([m.message]).toLowerCase());
    return stored;
  };
  store.messages.search = async (sessionId, query, options = {}) => {
    const anyOf = / OR /.test(query);
    const words = [
      ...new Set(
        query
          .toLowerCase()
          .split(/\W+/)
          .filter((w) => w.length > 2 && w !== "or"),
      ),
    ];
    const index = texts.get(sessionId) ?? new Map<number, string>();
    const exclude = new Set(options.excludeSeqs ?? []);
    const stored: StoredMessage[] = store.data.messages.get(sessionId) ?? [];
    const hits = stored
      .filter((m) => !exclude.has(m.seq) && (!options.kinds || options.kinds.includes(m.kind)))
      .map((m) => ({ m, score: words.filter((w) => index.get(m.seq)?.includes(w)).length }))
      .filter(({ score }) => (anyOf ? score > 0 : score === words.length && score > 0))
      .sort((a, b) => b.score - a.score || b.m.seq - a.m.seq)
      .slice(0, options.limit ?? 5);
    return hits.map(({ m, score }): SearchHit => ({
      seq: m.seq,
      kind: m.kind,
      iteration: m.iteration,
      role: m.message.role,
      rank: score,
      message: m.message,
    }));
  };
  return store;
}
