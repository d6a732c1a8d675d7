// Messages in the Anthropic Messages API shape. Defined here, structurally, so that `context` and
// `core` stay free of the SDK; the SDK's MessageParam accepts these values as they are.

export interface TextBlock {
  type: "text";
  text: string;
  cache_control?: CacheControl;
}

export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
  cache_control?: CacheControl;
}

export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string | Array<TextBlock | ImageBlock>;
  is_error?: boolean;
  cache_control?: CacheControl;
}

export interface ImageBlock {
  type: "image";
  source: { type: "base64"; media_type: string; data: string } | { type: "url"; url: string };
  cache_control?: CacheControl;
}

/** The model's thinking; must go back to the API exactly as received (the signature verifies it). */
interface ThinkingBlock {
  type: "thinking";
  thinking: string;
  signature: string;
}

/** Thinking the API encrypted; opaque, passed back unchanged. */
interface RedactedThinkingBlock {
  type: "redacted_thinking";
  data: string;
}

export interface CacheControl {
  type: "ephemeral";
  ttl?: "5m" | "1h";
}

export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | ImageBlock | ThinkingBlock | RedactedThinkingBlock;

export interface Message {
  role: "user" | "assistant";
  content: string | ContentBlock[];
}

export function blocksOf(message: Message): ContentBlock[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

export function toolUses(message: Message): ToolUseBlock[] {
  return blocksOf(message).filter((b): b is ToolUseBlock => b.type === "tool_use");
}

export function toolResults(message: Message): ToolResultBlock[] {
  return blocksOf(message).filter((b): b is ToolResultBlock => b.type === "tool_result");
}

/** The plain text of a message: text blocks only (no tool inputs or results). */
export function textOf(message: Message): string {
  return blocksOf(message)
    .filter((b): b is TextBlock => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}

/** The text inside a tool result, whatever its shape. */
export function toolResultText(block: ToolResultBlock): string {
  if (typeof block.content === "string") return block.content;
  return block.content.map((c) => (c.type === "text" ? c.text : "[image]")).join("\n");
}

/**
 * A response split at its SCRATCHPAD block (which runs to the next signal or the end): the block,
 * null when there is none, and the rest of the response.
 */
export function splitScratchpad(text: string): { scratchpad: string | null; rest: string } {
  const start = text.search(/^\s*`*SCRATCHPAD:/m);
  if (start === -1) return { scratchpad: null, rest: text };
  const tail = text.slice(start);
  const end = tail.search(/\n\s*`*(?:EVENT:|CHECKLIST_(?:ADD|DONE|FAILED):|MEMORY:|ACKNOWLEDGE_FAILURES)/);
  return { scratchpad: end === -1 ? tail : tail.slice(0, end), rest: text.slice(0, start) + (end === -1 ? "" : tail.slice(end)) };
}

/**
 * A response without its SCRATCHPAD block: the scratchpad is read by its sections (its Key
 * Decisions are curated), and a bullet of "Current Understanding" is a fact, not a decision.
 */
export function withoutScratchpad(text: string): string {
  return splitScratchpad(text).rest;
}
