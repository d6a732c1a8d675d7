import { blocksOf, type ContentBlock, type Message } from "../messages.js";

// The one rule every request's messages pass through, whatever history they come from (a fresh
// turn, a stored session from an older version, a resume). The API rejects a text block that is
// empty or only whitespace ("text content blocks must contain non-whitespace text") in every later
// request, and it answers with text blocks such as "\n\n" before a tool_use itself. Those blocks are
// stored as received (nothing is lost) and left out here. A message left with nothing is left out
// too, and same-role neighbours are sent as one message with its tool results first, as the API
// requires of the message after a tool_use. Text is sent well-formed: a lone UTF-16 surrogate (stored
// faithfully, e.g. from a tool output cut in the middle of an emoji) goes as U+FFFD, since the
// request body must be valid UTF-8.

/** True for a text block the API would reject if sent back. */
export function isBlankText(block: ContentBlock): boolean {
  return block.type === "text" && block.text.trim() === "";
}

export interface Sendable {
  messages: Message[];
  /** Blank text blocks left out. */
  blankBlocks: number;
  /** Messages left out because nothing sendable remained. */
  emptyMessages: number;
}

export function sendable(messages: readonly Message[]): Sendable {
  let blankBlocks = 0;
  let emptyMessages = 0;
  const out: Message[] = [];
  for (const message of messages) {
    const all = blocksOf(message);
    const kept = all.filter((b) => !isBlankText(b)).map(wellFormed);
    blankBlocks += all.length - kept.length;
    if (kept.length === 0) {
      emptyMessages++;
      continue;
    }
    const last = out.at(-1);
    if (last?.role === message.role) {
      out[out.length - 1] = { role: last.role, content: resultsFirst([...blocksOf(last), ...kept]) };
    } else {
      // An untouched message keeps its identity (and a plain string stays a string).
      const untouched = kept.length === all.length && kept.every((b, i) => b === all[i]);
      out.push(untouched ? message : { role: message.role, content: kept });
    }
  }
  return { messages: out, blankBlocks, emptyMessages };
}

/** The messages of sendable(), for callers that need no tally. */
export function sendableMessages(messages: readonly Message[]): Message[] {
  return sendable(messages).messages;
}

/** The block with lone surrogates in its text replaced; the same object when there are none. */
function wellFormed(block: ContentBlock): ContentBlock {
  if (block.type === "text") return block.text.isWellFormed() ? block : { ...block, text: block.text.toWellFormed() };
  if (block.type !== "tool_result") return block;
  const { content } = block;
  if (typeof content === "string") return content.isWellFormed() ? block : { ...block, content: content.toWellFormed() };
  if (content.every((c) => c.type !== "text" || c.text.isWellFormed())) return block;
  return { ...block, content: content.map((c) => (c.type === "text" ? { ...c, text: c.text.toWellFormed() } : c)) };
}

function resultsFirst(blocks: ContentBlock[]): ContentBlock[] {
  return [...blocks.filter((b) => b.type === "tool_result"), ...blocks.filter((b) => b.type !== "tool_result")];
}
