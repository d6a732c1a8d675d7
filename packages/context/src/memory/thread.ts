import { textOf, type Message } from "../messages.js";
import { isRealUserMessage, realUserText } from "./real-user.js";
import { redactSecrets } from "./redact.js";
import { truncateAtWord } from "./text.js";

// The thread section of a checkpoint, built mechanically (docs/design/handoff.md, no LLM). Only real user
// messages count as "the user", so a gauge line, a resume packet or a compacted-history summary can
// never open the thread summary.

export interface KeyExchange {
  role: "user" | "agent";
  gist: string;
}

export interface ThreadState {
  /** First real user message + " ... " + last real user message, each cut to 100 characters. */
  summary: string;
  key_exchanges: KeyExchange[];
}

const SUMMARY_PART_LENGTH = 100;
export const GIST_LENGTH = 120;
export const MAX_KEY_EXCHANGES = 8;
/** An agent response longer than this, followed by a user message, marks a likely decision point. */
const LONG_RESPONSE_CHARS = 500;

interface Turn {
  index: number;
  role: KeyExchange["role"];
  text: string;
}

function gist(text: string, max: number = GIST_LENGTH): string {
  return truncateAtWord(redactSecrets(text), max);
}

/** Real user messages and assistant messages with text, in order, as plain turns. */
function turnsOf(messages: readonly Message[]): Turn[] {
  const turns: Turn[] = [];
  messages.forEach((message, index) => {
    if (message.role === "assistant") {
      const text = textOf(message).trim();
      if (text.length > 0) turns.push({ index, role: "agent", text });
    } else if (isRealUserMessage(message)) {
      turns.push({ index, role: "user", text: realUserText(message) });
    }
  });
  return turns;
}

export function buildThreadSummary(messages: readonly Message[]): string {
  const users = turnsOf(messages).filter((t) => t.role === "user");
  const first = users[0];
  const last = users.at(-1);
  if (first === undefined || last === undefined) return "";
  if (first === last) return gist(first.text, SUMMARY_PART_LENGTH);
  return `${gist(first.text, SUMMARY_PART_LENGTH)} ... ${gist(last.text, SUMMARY_PART_LENGTH)}`;
}

/** The agent's last word on the exchange opened by the user turn at position `at`. */
function replyTo(turns: readonly Turn[], at: number): number | null {
  let reply: number | null = null;
  for (let i = at + 1; i < turns.length && turns[i]!.role === "agent"; i++) reply = i;
  return reply;
}

/**
 * Subsample: the first user message, every user message that follows a long agent
 * response, and the last two user/agent exchanges; at most 8, newest pivots kept when over the cap.
 */
export function buildKeyExchanges(messages: readonly Message[]): KeyExchange[] {
  const turns = turnsOf(messages);
  const userAt = turns.flatMap((t, i) => (t.role === "user" ? [i] : []));
  if (userAt.length === 0) return [];
  const required = new Set<number>([userAt[0]!]);
  for (const at of userAt.slice(-2)) {
    required.add(at);
    const reply = replyTo(turns, at);
    if (reply !== null) required.add(reply);
  }
  const pivots = userAt.filter((at) => {
    const previous = turns[at - 1];
    return previous?.role === "agent" && previous.text.length > LONG_RESPONSE_CHARS && !required.has(at);
  });
  const room = Math.max(0, MAX_KEY_EXCHANGES - required.size);
  const chosen = [...required, ...pivots.slice(Math.max(0, pivots.length - room))].sort((a, b) => a - b);
  return chosen.slice(-MAX_KEY_EXCHANGES).map((i) => ({ role: turns[i]!.role, gist: gist(turns[i]!.text) }));
}

export function buildThread(messages: readonly Message[]): ThreadState {
  return { summary: buildThreadSummary(messages), key_exchanges: buildKeyExchanges(messages) };
}
