import { blocksOf, toolResultText, type Message } from "@hatloop/context";

/** A stored message as readable text: its words, tool calls with their input, tool results. */
export function messageText(message: Message): string {
  return blocksOf(message)
    .map((block) => {
      switch (block.type) {
        case "text":
          return block.text;
        case "tool_use":
          return `[${block.name}] ${JSON.stringify(block.input)}`;
        case "tool_result":
          return `[result${block.is_error ? ", error" : ""}] ${toolResultText(block)}`;
        default:
          return "";
      }
    })
    .filter(Boolean)
    .join("\n");
}
