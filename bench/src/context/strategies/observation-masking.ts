import type { Message } from "@hatloop/context";
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
    const assistants: number[] = [];
    const masked = new WeakMap<Message, Message>();
    let context: Message[] = [];

    const take = (appended: readonly Message[]): void => {
      for (const m of appended) {
        if (m.role === "assistant") assistants.push(history.length);
        history.push(m);
      }
    };
    const view = (): Message[] => {
      // Results answer the assistant message before them: mask user messages before the 10th-last assistant.
      const cut = assistants.length > MASK_WINDOW ? assistants[assistants.length - MASK_WINDOW]! : 0;
      context = history.map((m, i) => (i < cut && m.role === "user" ? maskOf(m, masked) : m));
      return context;
    };
    return {
      async next(appended) {
        take(appended);
        return view();
      },
      async handoff(appended) {
        take(appended);
        return tailHandoff(history, view());
      },
      stats: () => ({}),
    };
  },
};

function maskOf(message: Message, cache: WeakMap<Message, Message>): Message {
  const hit = cache.get(message);
  if (hit) return hit;
  const out: Message =
    typeof message.content === "string" || !message.content.some((b) => b.type === "tool_result")
      ? message
      : { ...message, content: message.content.map((b) => (b.type === "tool_result" ? { ...b, content: MASKED } : b)) };
  cache.set(message, out);
  return out;
}
