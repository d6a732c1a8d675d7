import type { Message } from "@hatloop/context";

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
}

export interface Handoff {
  /** Everything a fresh session would be given, as searchable text. */
  text: string;
  tokens: number;
  /** What it is made of, for the report. */
  describe: string;
  /** Optional larger artifact (hatloop: the full handoff JSON), scored separately. */
  full?: { text: string; tokens: number; describe: string };
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
  /** The messages to send for the next model call. */
  next(appended: readonly Message[]): Promise<Message[]>;
  /** The API's prompt size for the request just returned (the harness's count), for strategies that anchor on it. */
  usage?(promptTokens: number): void;
  /** After the last message: what carries into a fresh session. */
  handoff(appended: readonly Message[]): Promise<Handoff>;
  /** Counters for the report (compactions, summaries, ...). */
  stats(): Record<string, number>;
  /** The summary calls made so far (none: the strategy makes none). */
  summaryCalls?(): readonly SummaryCall[];
}

export interface Strategy {
  name: string;
  /** One line for the report: what it does. */
  summary: string;
  start(context: StrategyContext): StrategyRun;
}
