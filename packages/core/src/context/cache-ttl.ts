import { CACHE_TTL_MS, type CacheTtl } from "@hatloop/context";

// Which prompt-cache TTL to ask for. A 5-minute entry is written at 1.25x and expires when the next
// call comes later than that (a long gate, the person away): the whole prefix is written again. A
// 1-hour entry costs 2x to write and survives such gaps. Switching TTL also rewrites the prefix, so
// the TTL changes only where the prefix is written anyway: the first call, after a compaction,
// after the cache expired; and there the rewrite itself costs 0.75 x context more at an hour. Per
// call, a share p of gaps between 5 minutes and an hour costs p x context x 1.15 at 5 minutes,
// against 0.75 x what each call writes at an hour (its growth, and the rewrites compactions make).
// The hour is chosen when that saving, over the calls until the next compaction, pays the rewrite
// premium several times over: long gaps on real sessions come in bursts, and a guess that does not
// pay costs 2x writes until the next compaction.

const READ = 0.1;
const WRITE = { "5m": 1.25, "1h": 2 } as const;
/** Gaps remembered (about the last hour of a busy session). */
const MAX_GAPS = 50;
/** Gaps needed before the hour is considered. */
const MIN_GAPS = 20;
/** How much the hour must save over its premium before it is chosen. */
const MARGIN = 4;
/**
 * The share of recent gaps that must have outlived 5 minutes. On the corpus (docs/context.md) 0.1
 * switches on the sessions whose long gaps cluster and costs nothing elsewhere; 0.05 also switches on
 * scattered gaps and lost 5% there; 0.2 switched once and broke even.
 */
const MIN_EXPIRING_SHARE = 0.1;
/** Calls until the next compaction, before any was seen. */
const DEFAULT_STAY = 50;

export class CacheTtlPolicy {
  /** @param fixed a TTL the user chose (context.cacheTtl), or null to choose from the gaps. */
  constructor(private readonly fixed: CacheTtl | null = null) {}

  private last: number | null = null;
  private ttl: CacheTtl = "5m";
  private gaps: number[] = [];
  private writes: number[] = [];
  private lastTokens = 0;
  private rewritten = true;
  /** The pending rewrite is a compaction's (paid at either TTL), not an expiry (which the hour avoids). */
  private compacted = false;
  private calls = 0;
  private compactionCalls: number[] = [];

  /** The prefix will be written anyway (a compaction rewrote it). */
  rewrite(): void {
    this.rewritten = true;
    this.compacted = true;
    this.compactionCalls = [...this.compactionCalls, this.calls].slice(-10);
  }

  /** The TTL of a request sent at `now`, with `tokens` in its context. */
  choose(now: number, tokens: number): CacheTtl {
    if (this.fixed) return this.fixed;
    this.calls++;
    if (this.last !== null) {
      const gap = now - this.last;
      this.gaps = [...this.gaps, gap].slice(-MAX_GAPS);
      if (gap > CACHE_TTL_MS[this.ttl]) this.rewritten = true;
    }
    this.last = now;
    if (this.rewritten) {
      this.ttl = this.hourPays(tokens) ? "1h" : "5m";
      this.rewritten = false;
    }
    this.writes = [...this.writes, this.compacted ? tokens : Math.max(0, tokens - this.lastTokens)].slice(-MAX_GAPS);
    this.compacted = false;
    this.lastTokens = tokens;
    return this.ttl;
  }

  private hourPays(tokens: number): boolean {
    if (this.gaps.length < MIN_GAPS) return false;
    const expiring = this.gaps.filter((g) => g > CACHE_TTL_MS["5m"] && g <= CACHE_TTL_MS["1h"]).length / this.gaps.length;
    if (expiring < MIN_EXPIRING_SHARE) return false;
    const written = mean(this.writes);
    const perCall = expiring * tokens * (WRITE["5m"] - READ) - (WRITE["1h"] - WRITE["5m"]) * written;
    const premium = (WRITE["1h"] - WRITE["5m"]) * tokens;
    return perCall * this.stay() > MARGIN * premium;
  }

  /** Calls between compactions, as seen. */
  private stay(): number {
    const c = this.compactionCalls;
    return c.length < 2 ? DEFAULT_STAY : (c.at(-1)! - c[0]!) / (c.length - 1);
  }
}

function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}
