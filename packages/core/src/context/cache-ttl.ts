import { CACHE_TTL_MS, type CacheTtl } from "@hatloop/context";
import type { TtlState } from "../state/guard.js";

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

/** The chooser's setting; what it has observed is data in the guard's state (TtlState), threaded through these pure methods. */
export class CacheTtlPolicy {
  /** @param fixed a TTL the user chose (context.cacheTtl), or null to choose from the gaps. */
  constructor(private readonly fixed: CacheTtl | null = null) {}

  /** The prefix will be written anyway (a compaction rewrote it). */
  rewrite(state: TtlState): TtlState {
    return { ...state, rewritten: true, compacted: true, compactionCalls: [...state.compactionCalls, state.calls].slice(-10) };
  }

  /** The TTL of a request sent at `now`, with `tokens` in its context, and the state after it. */
  choose(state: TtlState, now: number, tokens: number): { ttl: CacheTtl; state: TtlState } {
    if (this.fixed) return { ttl: this.fixed, state };
    const s = { ...state, calls: state.calls + 1 };
    if (s.last !== null) {
      const gap = now - s.last;
      s.gaps = [...s.gaps, gap].slice(-MAX_GAPS);
      if (gap > CACHE_TTL_MS[s.ttl]) s.rewritten = true;
    }
    s.last = now;
    if (s.rewritten) {
      s.ttl = hourPays(s, tokens) ? "1h" : "5m";
      s.rewritten = false;
    }
    s.writes = [...s.writes, s.compacted ? tokens : Math.max(0, tokens - s.lastTokens)].slice(-MAX_GAPS);
    s.compacted = false;
    s.lastTokens = tokens;
    return { ttl: s.ttl, state: s };
  }
}

function hourPays(state: TtlState, tokens: number): boolean {
  if (state.gaps.length < MIN_GAPS) return false;
  const expiring = state.gaps.filter((g) => g > CACHE_TTL_MS["5m"] && g <= CACHE_TTL_MS["1h"]).length / state.gaps.length;
  if (expiring < MIN_EXPIRING_SHARE) return false;
  const written = mean(state.writes);
  const perCall = expiring * tokens * (WRITE["5m"] - READ) - (WRITE["1h"] - WRITE["5m"]) * written;
  const premium = (WRITE["1h"] - WRITE["5m"]) * tokens;
  return perCall * stay(state) > MARGIN * premium;
}

/** Calls between compactions, as seen. */
function stay(state: TtlState): number {
  const c = state.compactionCalls;
  return c.length < 2 ? DEFAULT_STAY : (c.at(-1)! - c[0]!) / (c.length - 1);
}

function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}
