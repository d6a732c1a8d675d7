import type { Message } from "@hatloop/context";
import { messageTokens, searchableText, textTokens } from "../../util/message-text.js";
import type { Handoff } from "./types.js";

// The handoff of a strategy that has no handoff of its own: what it would carry into a fresh
// session — the task message, its summary if it keeps one, and the last ten messages as it last sent
// them (the same ten the reference loop keeps).

const TAIL_MESSAGES = 10;

export function tailHandoff(history: readonly Message[], context: readonly Message[], summary?: string): Handoff {
  const task = history[0];
  const tail = context.slice(-TAIL_MESSAGES).filter((m) => m !== task);
  const messages = task ? [task, ...tail] : tail;
  const summaryText = summary ?? "";
  return {
    text: [summaryText, searchableText(messages)].filter(Boolean).join("\n"),
    tokens: messageTokens(messages) + (summaryText ? textTokens(summaryText) : 0),
    describe: summary ? "task + summary + last 10 messages" : "task + last 10 messages",
  };
}
