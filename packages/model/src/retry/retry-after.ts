// How long the API asked us to wait, from its response headers. `retry-after-ms` is not standard
// but Anthropic sends it; `retry-after` is seconds or an HTTP date. Rate-limited responses without
// either still say when the exhausted limit resets (anthropic-ratelimit-*-reset, RFC 3339).

export interface HeaderSource {
  get(name: string): string | null;
}

const RATE_LIMIT_KINDS = ["requests", "tokens", "input-tokens", "output-tokens"];

export function retryAfterMs(headers: HeaderSource | null | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const ms = parseNumber(headers.get("retry-after-ms"));
  if (ms !== null) return Math.max(0, ms);
  const after = headers.get("retry-after");
  if (after) {
    const seconds = parseNumber(after);
    if (seconds !== null) return Math.max(0, seconds * 1000);
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return rateLimitResetMs(headers, now);
}

/** The latest reset among limits whose remaining count is zero. */
function rateLimitResetMs(headers: HeaderSource, now: number): number | null {
  let latest: number | null = null;
  for (const kind of RATE_LIMIT_KINDS) {
    if (headers.get(`anthropic-ratelimit-${kind}-remaining`) !== "0") continue;
    const reset = Date.parse(headers.get(`anthropic-ratelimit-${kind}-reset`) ?? "");
    if (!Number.isNaN(reset)) latest = Math.max(latest ?? 0, reset - now);
  }
  return latest === null ? null : Math.max(0, latest);
}

function parseNumber(value: string | null): number | null {
  if (value === null || value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}
