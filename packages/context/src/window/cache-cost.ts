import type { Message } from "../messages.js";
import { estimateTokens, type EstimateOptions } from "./estimate-tokens.js";
import { fingerprintMessage } from "./fingerprint.js";

// A pure model of Anthropic prompt caching, for tests and benchmarks: each request reads from
// cache the longest prefix it shares with the previous request and writes the rest (a breakpoint
// at the end of every request). It shows why removal must be batched and monotone: every change to
// an early message turns the whole suffix from a 0.1× read into a 1.25× write. Given when each
// request is sent and with which TTL, the cache also expires: a request more than the TTL after the
// previous one reads nothing, and so does one whose TTL differs from the previous one's (switching
// TTL rewrites the prefix, as seen in Claude Code's own accounting); 1-hour writes cost 2×.

export interface PromptSegment {
  /** Content identity: equal fingerprints mean byte-identical segments. */
  fingerprint: string;
  tokens: number;
}

export interface CachePricing {
  /** Base input price in USD per million tokens. Default 3. */
  inputPricePerMTok?: number;
  /** Cache write multiplier. Default 1.25 (5-minute TTL; 2 for 1 hour). */
  writeMultiplier?: number;
  /** Cache read multiplier. Default 0.1. */
  readMultiplier?: number;
}

export type CacheTtl = "5m" | "1h";

export const CACHE_TTL_MS: Record<CacheTtl, number> = { "5m": 5 * 60_000, "1h": 60 * 60_000 };

/** When a request is sent (epoch ms) and the TTL its cache breakpoint asks for. */
export interface RequestTiming {
  at: number;
  ttl: CacheTtl;
}

interface RequestCacheCost {
  tokens: number;
  readTokens: number;
  writeTokens: number;
  costUsd: number;
}

export interface CacheSimulation {
  requests: RequestCacheCost[];
  totalTokens: number;
  readTokens: number;
  writeTokens: number;
  costUsd: number;
  /** The same requests without caching, at the base price. */
  uncachedCostUsd: number;
  /** readTokens / totalTokens (0 for no tokens). */
  readShare: number;
}

/** Without `timing` the cache never expires (every request within the TTL of the one before). */
export function simulatePromptCache(
  requests: ReadonlyArray<readonly PromptSegment[]>,
  pricing: CachePricing = {},
  timing?: readonly RequestTiming[],
): CacheSimulation {
  const perToken = (pricing.inputPricePerMTok ?? 3) / 1_000_000;
  const read = pricing.readMultiplier ?? 0.1;
  let previous: readonly PromptSegment[] = [];
  const costs = requests.map((segments, i) => {
    const now = timing?.[i];
    const before = timing?.[i - 1];
    const alive = !now || !before || (now.ttl === before.ttl && now.at - before.at <= CACHE_TTL_MS[before.ttl]);
    const shared = alive ? sharedPrefixLength(previous, segments) : 0;
    const write = now?.ttl === "1h" ? 2 : (pricing.writeMultiplier ?? 1.25);
    previous = segments;
    const tokens = sum(segments);
    const readTokens = sum(segments.slice(0, shared));
    const writeTokens = tokens - readTokens;
    return { tokens, readTokens, writeTokens, costUsd: (readTokens * read + writeTokens * write) * perToken };
  });
  const totalTokens = costs.reduce((n, c) => n + c.tokens, 0);
  const readTokens = costs.reduce((n, c) => n + c.readTokens, 0);
  return {
    requests: costs,
    totalTokens,
    readTokens,
    writeTokens: totalTokens - readTokens,
    costUsd: costs.reduce((n, c) => n + c.costUsd, 0),
    uncachedCostUsd: totalTokens * perToken,
    readShare: totalTokens === 0 ? 0 : readTokens / totalTokens,
  };
}

/** One segment per message (fingerprint + estimated tokens), optionally after a fixed system/tools segment. */
export function messageSegments(messages: readonly Message[], opts: EstimateOptions = {}, prefix?: PromptSegment): PromptSegment[] {
  const perMessage = { ...opts, system: undefined, tools: undefined };
  const segments = messages.map((m) => ({ fingerprint: fingerprintMessage(m), tokens: estimateTokens([m], perMessage) }));
  return prefix ? [prefix, ...segments] : segments;
}

function sharedPrefixLength(a: readonly PromptSegment[], b: readonly PromptSegment[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i]!.fingerprint === b[i]!.fingerprint) i++;
  return i;
}

function sum(segments: readonly PromptSegment[]): number {
  return segments.reduce((n, s) => n + s.tokens, 0);
}
