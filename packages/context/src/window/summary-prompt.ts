import { toolResultText, type ContentBlock, type Message } from "../messages.js";
import { SUMMARY_SECTIONS } from "./summary-sections.js";
import { clip } from "./tool-input.js";

// The structured-summary request (docs/design/summaries.md, run on a cheaper model). Input is
// bounded three ways: each message (seed: 2,000 characters), each tool result (shorter: results
// are the bulk and are archived anyway), and the whole history, which keeps the first message (the
// task) and as many of the most recent as fit.

export interface SummaryPromptOptions {
  /** Per-message bound. Default 2,000. */
  maxMessageChars?: number;
  /** Per-tool-result bound. Default 500. */
  maxToolResultChars?: number;
  /** Bound of the rendered history. Default 60,000 characters (≈15k tokens). */
  maxHistoryChars?: number;
  /** An earlier summary to fold in, so rolling compactions do not forget what came before (≤ 8,000 chars). */
  previousSummary?: string;
  /** Deterministic facts (e.g. the mechanical summary's changed files) the summary must keep (≤ 8,000 chars). */
  facts?: string;
}

const TRUNCATED = "... [truncated]";
/** Bound of the earlier summary and of the facts, each. */
const EXTRA_MAX = 8_000;

export function buildSummaryPrompt(messages: readonly Message[], opts: SummaryPromptOptions = {}): string {
  const maxMessage = opts.maxMessageChars ?? 2_000;
  const maxResult = opts.maxToolResultChars ?? 500;
  const rendered = messages.map((m) => `[${m.role}]: ${renderMessage(m, maxMessage, maxResult)}`);
  const history = boundHistory(rendered, opts.maxHistoryChars ?? 60_000);
  const sections = SUMMARY_SECTIONS.map((s, i) => `${i + 1}. **${s.title}** - ${s.ask}`).join("\n");
  const earlier = opts.previousSummary ? `**Earlier Summary (fold it in):**\n${truncate(opts.previousSummary.trim(), EXTRA_MAX)}\n\n` : "";
  const facts = opts.facts
    ? `**Recorded Facts (authoritative; keep every file path):**\n${truncate(opts.facts.trim(), EXTRA_MAX)}\n\n`
    : "";
  return [
    "Summarize this conversation history for session continuation.",
    "",
    `${earlier}${facts}**Conversation History:**`,
    history,
    "",
    "Wrap your reasoning in <analysis> tags, then provide a structured summary with these sections, each as a",
    "markdown heading with its exact title:",
    "",
    sections,
    "",
    "Be thorough - this summary will be the only context for continuing the session.",
    "Do not mention that you read a summary or that summarization occurred.",
  ].join("\n");
}

/** Text, tool calls (name + JSON input) and tool results (bounded shorter), then the message bound. */
function renderMessage(message: Message, maxMessage: number, maxResult: number): string {
  const parts = typeof message.content === "string" ? [message.content] : message.content.map((b) => renderBlock(b, maxResult));
  return truncate(parts.filter((p) => p !== "").join("\n"), maxMessage);
}

function renderBlock(block: ContentBlock, maxResult: number): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "tool_use":
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify returns undefined for undefined, a function or a symbol, though lib.d.ts says string
      return `[tool_use ${block.name}] ${clip(JSON.stringify(block.input ?? {}) ?? "{}", maxResult)}`;
    case "tool_result":
      return `[tool_result${block.is_error ? " error" : ""}] ${truncate(toolResultText(block), maxResult)}`;
    case "image":
      return "[image]";
    case "thinking":
    case "redacted_thinking":
      return ""; // private reasoning: not part of the record to summarise
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) + TRUNCATED : text;
}

/** Keeps the first entry and the newest entries that fit, marking the gap. */
function boundHistory(entries: readonly string[], maxChars: number): string {
  const all = entries.join("\n\n");
  if (all.length <= maxChars || entries.length <= 1) return all.slice(0, Math.max(maxChars, 0));
  const first = entries[0]!;
  const tail: string[] = [];
  let used = first.length;
  for (let i = entries.length - 1; i > 0; i--) {
    const entry = entries[i]!;
    if (used + entry.length + 2 > maxChars - 60) break;
    tail.unshift(entry);
    used += entry.length + 2;
  }
  const omitted = entries.length - 1 - tail.length;
  return [first, `[... ${omitted} earlier messages omitted ...]`, ...tail].join("\n\n");
}
