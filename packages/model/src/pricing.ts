import type { Usage } from "@hatloop/core";

// List prices in US dollars per million tokens and output limits (platform.claude.com model pages,
// November 2026).
// Cache writes are priced for the 5-minute TTL (1.25x input) and cache reads at 0.1x input, as the
// API bills them, unless a model's page lists another read price.
// Amazon Bedrock and Google Vertex AI list the same prices for their global endpoints (Bedrock's
// `global.` inference profiles, Vertex's `global` region); their regional endpoints (a region, or a
// geography profile such as `us.`) cost 10% more for the models from Sonnet 4.5 / Haiku 4.5 on.

export interface ModelPrice {
  /** The table entry the model id matched, e.g. "claude-sonnet-4-5". */
  family: string;
  inputPerMTok: number;
  outputPerMTok: number;
  cacheWritePerMTok: number;
  cacheReadPerMTok: number;
  contextWindow: number;
  /** The most output tokens one response may have (max_tokens above it is a 400). */
  maxOutputTokens: number;
  /** False when the id matched nothing and Sonnet prices were assumed; callers should say so. */
  known: boolean;
}

interface PriceEntry {
  family: string;
  /** Normalised ids (see normalise); a dated or tagged variant of one matches too (see matches). */
  prefixes: string[];
  input: number;
  output: number;
  /** When the published cache-read price is not 0.1x input. */
  cacheRead?: number;
  contextWindow?: number;
  /** Output limit per response (the models overview's "max output"). */
  maxOutput: number;
  /** Priced 10% higher on a cloud provider's regional endpoint (the 4.5 generation on). */
  regionalPremium?: true;
}

/** Where a model is called; the Anthropic API and the clouds' global endpoints are not regional. */
export interface PriceOptions {
  regional?: boolean;
}

const REGIONAL_PREMIUM = 1.1;

const DEFAULT_CONTEXT_WINDOW = 200_000;
/** For an unknown id: the smallest limit of the current families, so max_tokens never overshoots. */
const DEFAULT_MAX_OUTPUT = 32_000;

const PRICE_TABLE: PriceEntry[] = [
  {
    family: "claude-fable-5-1",
    prefixes: ["fable-5-1", "fable-5.1"],
    input: 10,
    output: 50,
    contextWindow: 1_000_000,
    maxOutput: 128_000,
    regionalPremium: true,
  },
  {
    family: "claude-opus-5-5",
    prefixes: ["opus-5-5", "opus-5.5"],
    input: 4,
    output: 20,
    cacheRead: 0.2,
    contextWindow: 1_000_000,
    maxOutput: 128_000,
    regionalPremium: true,
  },
  {
    family: "claude-opus-5",
    prefixes: ["opus-5", "opus-5-0"],
    input: 5,
    output: 25,
    contextWindow: 1_000_000,
    maxOutput: 128_000,
    regionalPremium: true,
  },
  {
    family: "claude-sonnet-5-5",
    prefixes: ["sonnet-5-5", "sonnet-5.5"],
    input: 2,
    output: 10,
    contextWindow: 1_000_000,
    maxOutput: 128_000,
    regionalPremium: true,
  },
  {
    family: "claude-sonnet-5",
    prefixes: ["sonnet-5", "sonnet-5-0"],
    input: 2,
    output: 10,
    contextWindow: 1_000_000,
    maxOutput: 128_000,
    regionalPremium: true,
  },
  { family: "claude-opus-4-5", prefixes: ["opus-4-5", "opus-4.5"], input: 5, output: 25, maxOutput: 64_000, regionalPremium: true },
  { family: "claude-opus-4-1", prefixes: ["opus-4-1", "opus-4.1"], input: 15, output: 75, maxOutput: 32_000 },
  { family: "claude-opus-4", prefixes: ["opus-4", "opus-4-0"], input: 15, output: 75, maxOutput: 32_000 },
  { family: "claude-sonnet-4-5", prefixes: ["sonnet-4-5", "sonnet-4.5"], input: 3, output: 15, maxOutput: 64_000, regionalPremium: true },
  { family: "claude-sonnet-4", prefixes: ["sonnet-4", "sonnet-4-0"], input: 3, output: 15, maxOutput: 64_000 },
  { family: "claude-haiku-4-5", prefixes: ["haiku-4-5", "haiku-4.5"], input: 1, output: 5, maxOutput: 64_000, regionalPremium: true },
  { family: "claude-3-7-sonnet", prefixes: ["3-7-sonnet"], input: 3, output: 15, maxOutput: 64_000 },
  { family: "claude-3-5-sonnet", prefixes: ["3-5-sonnet"], input: 3, output: 15, maxOutput: 8_192 },
  { family: "claude-3-5-haiku", prefixes: ["3-5-haiku"], input: 0.8, output: 4, maxOutput: 8_192 },
  { family: "claude-3-opus", prefixes: ["3-opus"], input: 15, output: 75, maxOutput: 4_096 },
  { family: "claude-3-haiku", prefixes: ["3-haiku"], input: 0.25, output: 1.25, maxOutput: 4_096 },
];

// Bare aliases name the newest model of a tier.
const ALIASES: Record<string, string> = { sonnet: "sonnet-5-5", opus: "opus-5-5", haiku: "haiku-4-5" };

const FALLBACK = PRICE_TABLE.find((e) => e.family === "claude-sonnet-5-5") as PriceEntry;

/** Lower-cases and strips provider prefixes ("anthropic/", "us.anthropic.", "global.anthropic.") and "claude-". */
function normalise(model: string): string {
  const id = model
    .trim()
    .toLowerCase()
    .replace(/^(?:[a-z]{2,6}\.)?anthropic[./]/, "")
    .replace(/^claude-/, "");
  return ALIASES[id] ?? id;
}

// A suffix may be a snapshot date, "-latest", or a cloud tag ("@20250514", ":0", Bedrock's "-v1"),
// but not a further version number: "opus-4-6" must not be priced as "opus-4".
const VARIANT_SUFFIX = /^(?:-\d{8}|-latest|-v\d|[@:])/;

function matches(id: string, prefix: string): boolean {
  return id === prefix || (id.startsWith(prefix) && VARIANT_SUFFIX.test(id.slice(prefix.length)));
}

export function priceOf(model: string, options: PriceOptions = {}): ModelPrice {
  const id = normalise(model);
  const entry = PRICE_TABLE.find((e) => e.prefixes.some((p) => matches(id, p)));
  const chosen = entry ?? FALLBACK;
  const factor = options.regional && chosen.regionalPremium ? REGIONAL_PREMIUM : 1;
  return {
    family: chosen.family,
    inputPerMTok: chosen.input * factor,
    outputPerMTok: chosen.output * factor,
    cacheWritePerMTok: chosen.input * 1.25 * factor,
    cacheReadPerMTok: (chosen.cacheRead ?? chosen.input * 0.1) * factor,
    // An unknown model gets the conservative window: guessing too large would overflow it.
    contextWindow: entry?.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
    maxOutputTokens: entry?.maxOutput ?? DEFAULT_MAX_OUTPUT,
    known: entry !== undefined,
  };
}

export function isKnownModel(model: string): boolean {
  return priceOf(model).known;
}

/**
 * Dollar cost of one response's usage; unknown models are priced as Sonnet (see priceOf().known).
 * `cacheWrite1hTokens` of the cache writes were for 1-hour entries: 2x input instead of 1.25x.
 */
export function costOf(model: string, usage: Usage, options: PriceOptions = {}, cacheWrite1hTokens = 0): number {
  const p = priceOf(model, options);
  const micro =
    usage.inputTokens * p.inputPerMTok +
    usage.outputTokens * p.outputPerMTok +
    usage.cacheWriteTokens * p.cacheWritePerMTok +
    cacheWrite1hTokens * (p.inputPerMTok * 2 - p.cacheWritePerMTok) +
    usage.cacheReadTokens * p.cacheReadPerMTok;
  return micro / 1_000_000;
}

/** Web search, a server tool, is billed per search on top of tokens ($10 per 1,000 searches). */
export function webSearchCostOf(searches: number): number {
  return searches * 0.01;
}

export function contextWindowOf(model: string): number {
  return priceOf(model).contextWindow;
}

export function maxOutputTokensOf(model: string): number {
  return priceOf(model).maxOutputTokens;
}
