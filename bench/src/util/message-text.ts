import { blocksOf, estimateTokens, toolResultText, type Message } from "@hatloop/context";

// Everything a model would read in a message, as plain text: text and thinking, tool names and the
// string values of tool inputs (not their JSON, so quotes and newlines stay searchable), and tool
// results. Facts are matched against this.

export function searchableText(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    for (const block of blocksOf(message)) {
      if (block.type === "text") parts.push(block.text);
      else if (block.type === "thinking") parts.push(block.thinking);
      else if (block.type === "tool_use") parts.push(block.name, ...stringsIn(block.input));
      else if (block.type === "tool_result") parts.push(toolResultText(block));
    }
  }
  return parts.join("\n");
}

function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsIn);
  return typeof value === "number" || typeof value === "boolean" || typeof value === "bigint" ? [String(value)] : [];
}

/** Token estimate of plain text, the same ratio as estimateTokens (4 characters per token). */
export function textTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function messageTokens(messages: readonly Message[]): number {
  return messages.length === 0 ? 0 : estimateTokens(messages);
}
