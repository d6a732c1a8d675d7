import type { SessionQuery, SessionRow } from "./backend.js";

// A sessions filter, as the page's form and the live stream read it, and whether a row matches it
// (for live updates: a row that changed may enter or leave a page's filter).

export function parseQuery(params: URLSearchParams): SessionQuery {
  const value = (key: string) => params.get(key)?.trim() || undefined;
  const status = value("status")
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    ...(status?.length ? { status } : {}),
    ...(value("worker") ? { worker: value("worker") } : {}),
    ...(value("repo") ? { repo: value("repo") } : {}),
    ...(value("text") ? { text: value("text") } : {}),
  };
}

export function matchesQuery(row: SessionRow, query: SessionQuery): boolean {
  if (query.status?.length && !query.status.includes(row.status)) return false;
  if (query.worker && row.worker !== query.worker) return false;
  if (query.repo && !(row.repo ?? "").includes(query.repo)) return false;
  if (query.text) {
    const text = query.text.toLowerCase();
    const { session } = row;
    const haystack = `${session.title}\n${session.task}`.toLowerCase();
    if (!session.id.startsWith(text) && !text.split(/\s+/).every((word) => haystack.includes(word))) return false;
  }
  return true;
}
