import { blocksOf, type Message } from "@hatloop/context";
import { tailHandoff } from "./tail-handoff.js";
import type { Strategy } from "./types.js";

// Observation masking (OpenHands' masking condenser; the "Complexity Trap" paper's M = 10): at every
// call, tool results older than the last 10 turns (assistant messages) are replaced by a placeholder.
// Actions and reasoning stay. The window rolls every call, so the prefix changes every call.

const MASK_WINDOW = 10;
export const MASKED = "<MASKED>";

export const observationMasking: Strategy = {
  name: "observation-masking",
  summary: `tool results older than the last ${MASK_WINDOW} turns replaced by ${MASKED}, every call`,
  start() {
    const history: Message[] = [];
    return {
      async next(appended) {
        history.push(...appended);
        return maskOldResults(history, MASK_WINDOW);
      },
      async handoff(appended) {
        history.push(...appended);
        return tailHandoff(history, maskOldResults(history, MASK_WINDOW));
      },
      stats: () => ({}),
    };
  },
};

const masks = new WeakMap<Message, Message>();

/** The messages with tool results older than the last `turns` assistant messages masked. */
export function maskOldResults(messages: readonly Message[], turns: number): Message[] {
  const assistants = messages.flatMap((m, i) => (m.role === "assistant" ? [i] : []));
  // Results answer the assistant message before them: mask user messages before the turns-th last assistant.
  const cut = assistants.length > turns ? assistants[assistants.length - turns]! : 0;
  return messages.map((m, i) => (i < cut && m.role === "user" ? maskOf(m) : m));
}

function maskOf(message: Message): Message {
  const hit = masks.get(message);
  if (hit) return hit;
  const out: Message = blocksOf(message).some((b) => b.type === "tool_result")
    ? { ...message, content: blocksOf(message).map((b) => (b.type === "tool_result" ? { ...b, content: MASKED } : b)) }
    : message;
  masks.set(message, out);
  return out;
}
