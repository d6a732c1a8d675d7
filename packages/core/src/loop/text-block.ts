import type { ContentBlock } from "@hatloop/context";

export function textBlock(text: string): ContentBlock {
  return { type: "text", text };
}
