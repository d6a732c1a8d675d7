import { MARKERS } from "../markers.js";
import type { Message } from "../messages.js";

// The turn model of seed 003: a turn starts at a real user message and runs through the assistant
// replies and tool results up to the next one. A message carrying tool_results is never a turn
// start — it belongs to the assistant call it answers — so whole turns can be dropped without ever
// separating a tool_result from its tool_use.

export interface Turn {
  /** Index of the first message (a real user message, except for a leading preamble). */
  start: number;
  /** One past the last message. */
  end: number;
}

/**
 * A user message with content of its own and no tool results: a task, a steer, or hatloop's
 * continuation prompt (each iteration of the loop is a turn).
 */
export function isTurnStart(message: Message): boolean {
  if (message.role !== "user") return false;
  if (typeof message.content === "string") return message.content.trim() !== "";
  return message.content.length > 0 && message.content.every((b) => b.type !== "tool_result");
}

/**
 * Contiguous turns covering every message. Messages before the first real user message (a
 * malformed or truncated history) form a preamble turn whose start is not a user message.
 */
export function splitTurns(messages: readonly Message[]): Turn[] {
  const turns: Turn[] = [];
  messages.forEach((message, i) => {
    const current = turns[turns.length - 1];
    if (current === undefined || isTurnStart(message)) turns.push({ start: i, end: i + 1 });
    else current.end = i + 1;
  });
  return turns;
}

/** Text that is a raw summary or resume artifact, which live context must not carry twice. */
export function isArtifactText(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith(MARKERS.summary) || t.startsWith(MARKERS.resume);
}
