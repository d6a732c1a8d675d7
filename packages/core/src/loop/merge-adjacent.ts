import { blocksOf, type Message } from "@hatloop/context";

/**
 * The API wants alternating roles. The live context can hold adjacent user messages (the task, a
 * compaction packet, the first kept turn; or a resume packet after tool results); they are sent as
 * one message, tool results first, as the API requires.
 */
export function mergeAdjacent(messages: Message[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    const last = out.at(-1);
    if (!last || last.role !== message.role) {
      out.push(message);
      continue;
    }
    const blocks = [...blocksOf(last), ...blocksOf(message)];
    const results = blocks.filter((b) => b.type === "tool_result");
    out[out.length - 1] = { role: last.role, content: [...results, ...blocks.filter((b) => b.type !== "tool_result")] };
  }
  return out;
}
