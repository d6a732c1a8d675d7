import type { CacheTtl, Message } from "@hatloop/context";

// A context-management strategy, driven call by call. Before each model call it receives the
// messages the session appended since the previous call (the first time: everything before the first
// assistant message) and answers with the messages it would send. The fixed system prompt and tool
// specs are the same for every strategy and are priced by the harness, not here.

export interface StrategyContext {
  /** The working window in tokens (what the guard manages). */
  window: number;
  /** The system prompt and tool specs as one string (the same for every strategy). */
  system: string;
  /** Token estimate of the system prompt and tool specs. */
  systemTokens: number;
  /** The names of every tool the session's agent calls (a loop needs its tools before the first call). */
  toolNames: readonly string[];
}

export interface Handoff {
  /** Everything a fresh session would be given, as searchable text. */
  text: string;
  tokens: number;
  /** What it is made of, for the report. */
  describe: string;
  /** The lines it presents as key decisions, when it has such a list (scored for noise). */
  decisions?: string[];
  /** Optional larger artifact (hatloop: the full handoff), scored separately. */
  full?: { text: string; tokens: number; describe: string; decisions?: string[] };
}

/** A summary call a strategy makes when it compacts; the harness prices it beside the requests. */
export interface SummaryCall {
  /** "main": the session's own model; "summary": the cheaper summary model. */
  model: "main" | "summary";
  inputTokens: number;
  /** Of inputTokens, read from the prompt cache (a prefix shared with the conversation). */
  cachedTokens: number;
  outputTokens: number;
}

export interface StrategyRun {
  /** The messages to send for the next model call; `at` is when it is sent (epoch ms), when known. */
  next(appended: readonly Message[], at?: number): Promise<Message[]>;
  /** The API's prompt size for the request just returned (the harness's count), for strategies that anchor on it. */
  usage?(promptTokens: number): void;
  /** After the last message: what carries into a fresh session. */
  handoff(appended: readonly Message[], at?: number): Promise<Handoff>;
  /** Counters for the report (compactions, summaries, ...). */
  stats(): Record<string, number>;
  /** The summary calls made so far (none: the strategy makes none). */
  summaryCalls?(): readonly SummaryCall[];
  /** The cache TTL the request just returned asks for (default 5m). */
  cacheTtl?(): CacheTtl;
  /** What one recall call for `query` returns now, as text (strategies with a recall tool). */
  recall?(query: string): Promise<string[]>;
}

export interface Strategy {
  name: string;
  /** One line for the report: what it does. */
  summary: string;
  start(context: StrategyContext): StrategyRun;
}
