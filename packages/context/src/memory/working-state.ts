import { textOf, toolResults, toolUses, type Message, type ToolUseBlock } from "../messages.js";
import { isQuestion } from "./decision-quality.js";
import { extractNextAction } from "./open-items-extract.js";
import { isRealUserMessage, realUserText } from "./real-user.js";
import { redactSecrets } from "./redact.js";
import { collapseWhitespace, truncateAtWord } from "./text.js";

// The working state of a checkpoint (docs/design/handoff.md), computed from the message array only:
// what the user last asked about, whether work is under way, what comes next, the last tool call.
// Field names follow the checkpoint schema (snake_case) because this shape is persisted as is.

export type WorkingStatus = "in_progress" | "idle" | "waiting_for_user";

export interface ToolCallSummary {
  name: string;
  params_summary: string;
}

export interface WorkingState {
  topic: string;
  status: WorkingStatus;
  /** The last assistant turn asked for tools whose results are not in the messages. */
  interrupted: boolean;
  next_action: string;
  last_tool_call: ToolCallSummary | null;
}

const TOPIC_LENGTH = 100;
const PARAMS_SUMMARY_LENGTH = 160;
const PARAM_VALUE_LENGTH = 60;
/** Tool calls in this many of the latest assistant turns mean work is under way. */
const RECENT_ASSISTANT_TURNS = 3;

/** The last real user message, cut to 100 characters; `fallback` (e.g. the task title) otherwise. */
export function extractTopic(messages: readonly Message[], fallback: string): string {
  const last = [...messages].reverse().find(isRealUserMessage);
  const text = last === undefined ? fallback : realUserText(last);
  return truncateAtWord(redactSecrets(text), TOPIC_LENGTH);
}

function summarizeValue(value: unknown): string {
  if (typeof value === "string") {
    if (value.length > 200 || value.includes("\n")) return `<${value.length} chars>`;
    const flat = truncateAtWord(value, PARAM_VALUE_LENGTH);
    return /[\s,=]/.test(flat) || flat.length === 0 ? JSON.stringify(flat) : flat;
  }
  if (Array.isArray(value)) return `[${value.length} items]`;
  if (value !== null && typeof value === "object") return `{${Object.keys(value).length} keys}`;
  return String(value);
}

/** "path=src/a.ts, command=\"pnpm test\"": keys in input order, long values as sizes, redacted. */
export function summarizeToolParams(input: unknown): string {
  const text =
    input !== null && typeof input === "object" && !Array.isArray(input)
      ? Object.entries(input)
          .map(([key, value]) => `${key}=${summarizeValue(value)}`)
          .join(", ")
      : summarizeValue(input);
  return truncateAtWord(redactSecrets(text), PARAMS_SUMMARY_LENGTH);
}

export function lastToolCall(messages: readonly Message[]): ToolCallSummary | null {
  const uses: ToolUseBlock[] = messages.flatMap((m) => (m.role === "assistant" ? toolUses(m) : []));
  const last = uses.at(-1);
  return last === undefined ? null : { name: last.name, params_summary: summarizeToolParams(last.input) };
}

export function isInterrupted(messages: readonly Message[]): boolean {
  const lastAssistant = messages
    .map((m, i) => [m, i] as const)
    .filter(([m]) => m.role === "assistant")
    .at(-1);
  if (lastAssistant === undefined) return false;
  const [message, at] = lastAssistant;
  const answered = new Set(messages.slice(at + 1).flatMap((m) => toolResults(m).map((r) => r.tool_use_id)));
  return toolUses(message).some((use) => !answered.has(use.id));
}

/**
 * Recent tool calls or a message still to be answered: in_progress. The agent's last word is a
 * question with nothing after it: waiting_for_user. Otherwise idle.
 */
export function inferStatus(messages: readonly Message[]): WorkingStatus {
  const last = messages.at(-1);
  if (last === undefined) return "idle";
  if (last.role === "assistant" && toolUses(last).length === 0 && isQuestion(collapseWhitespace(textOf(last)))) {
    return "waiting_for_user";
  }
  const recent = messages.filter((m) => m.role === "assistant").slice(-RECENT_ASSISTANT_TURNS);
  if (last.role === "user" || recent.some((m) => toolUses(m).length > 0)) return "in_progress";
  return "idle";
}

/** The newest "next: ..." phrase in assistant text, or null. */
function nextActionFromMessages(messages: readonly Message[]): string | null {
  for (const message of [...messages].reverse()) {
    if (message.role !== "assistant") continue;
    const next = extractNextAction(textOf(message));
    if (next !== null) return redactSecrets(next);
  }
  return null;
}

/**
 * The working state. `nextActionFallbacks` are tried in order when no assistant message names a
 * next action (e.g. the scratchpad's "Next:", the first remaining checklist item).
 */
export function extractWorkingState(
  messages: readonly Message[],
  options: { fallbackTopic: string; nextActionFallbacks?: readonly (string | null | undefined)[] },
): WorkingState {
  const fallbacks = (options.nextActionFallbacks ?? []).filter((s): s is string => typeof s === "string" && s.trim() !== "");
  return {
    topic: extractTopic(messages, options.fallbackTopic),
    status: inferStatus(messages),
    interrupted: isInterrupted(messages),
    next_action: nextActionFromMessages(messages) ?? fallbacks[0]?.trim() ?? "",
    last_tool_call: lastToolCall(messages),
  };
}
