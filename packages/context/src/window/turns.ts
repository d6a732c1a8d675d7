import { MARKERS } from "../markers.js";
import type { Message } from "../messages.js";

// The turn model (docs/design/context-layers.md): a turn starts at a real user message and runs through the assistant
// replies and tool results up to the next one. A message carrying only tool results (perhaps with
// the gauge line) belongs to the call it answers. hatloop's loop puts its notes (steering, a hat
// change, feedback) into the same user message as the tool results, after them: such a message
// starts a turn with its text, while its results still close the previous turn — pruning strips
// them when it drops that turn, so a tool_result never outlives its tool_use.

export interface Turn {
  /** Index of the first message (a real user message, except for a leading preamble). */
  start: number;
  /** One past the last message. */
  end: number;
}

/** Injected text that does not make a message a turn start: the gauge, recalled context, stubs. */
const NOT_A_TURN = [MARKERS.gauge, MARKERS.recalled, MARKERS.removedResult];

/**
 * A user message with content of its own besides tool results: a task, a steer, hatloop's
 * continuation prompt or notes (each iteration that ends without tool calls opens a turn).
 */
export function isTurnStart(message: Message): boolean {
  if (message.role !== "user") return false;
  if (typeof message.content === "string") return ownsText(message.content);
  return message.content.some((b) => b.type === "image" || (b.type === "text" && ownsText(b.text)));
}

function ownsText(text: string): boolean {
  const t = text.trim();
  return t !== "" && !NOT_A_TURN.some((marker) => t.startsWith(marker));
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
