import { MARKERS } from "../markers.js";
import { toolResultText, type Message, type ToolResultBlock, type ToolUseBlock } from "../messages.js";
import { failureLine, firstMeaningfulLine } from "./failure-line.js";
import { clip, describeToolCall } from "./tool-input.js";

// The stub that replaces a tool result taken out of the live context. It keeps the pair valid (the
// block stays, with its tool_use_id and is_error), names where the full result is archived, and
// carries a one-line gist so the model can decide whether fetching it is worth a recall call.

export interface StubSource {
  block: ToolResultBlock;
  /** The tool_use this result answers, when found in the preceding assistant message. */
  use: ToolUseBlock | undefined;
  /** Stored sequence number of the message holding the result, when the caller knows it. */
  seq: number | undefined;
}

export function isStubbedResult(block: ToolResultBlock): boolean {
  return toolResultText(block).startsWith(MARKERS.removedResult);
}

export function stubText({ block, use, seq }: StubSource): string {
  const where = seq === undefined ? `id ${block.tool_use_id}` : `id ${block.tool_use_id}, seq ${seq}`;
  const call = use ? describeToolCall(use.name, use.input, 80) : "unknown tool";
  return `${MARKERS.removedResult}: ${where}] ${call} → ${gist(block)}. Fetch it with the recall tool.`;
}

/** A copy of the block with its content replaced by the stub; is_error and cache_control kept. */
export function stubResult(source: StubSource): ToolResultBlock {
  return { ...source.block, content: stubText(source) };
}

/**
 * First meaningful line, the first failure line when there is one (a failing test is known by its
 * error, not by the runner's banner), and the size:
 * "\"> app@1.0.0 test\" … \"FAIL src/auth.test.ts: expected 200\" (3214 chars, 81 lines, error)".
 */
function gist(block: ToolResultBlock): string {
  const text = toolResultText(block);
  const lines = text === "" ? 0 : text.split("\n").length;
  const images = typeof block.content === "string" ? 0 : block.content.filter((c) => c.type === "image").length;
  const size = [`${text.length} chars`, `${lines} lines`];
  if (images > 0) size.push(`${images} image${images === 1 ? "" : "s"}`);
  if (block.is_error) size.push("error");
  const first = firstMeaningfulLine(text);
  const failure = failureLine(text);
  const quoted = [first === null ? null : clip(first, 100), failure === null || failure === first ? null : clip(failure, 200)]
    .filter((l): l is string => l !== null)
    .map((l) => `"${l}"`);
  return quoted.length ? `${quoted.join(" … ")} (${size.join(", ")})` : `(${size.join(", ")})`;
}

/** tool_use_id → tool_use, over all assistant messages (ids are unique in a valid conversation). */
export function indexToolUses(messages: readonly Message[]): Map<string, ToolUseBlock> {
  const index = new Map<string, ToolUseBlock>();
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const block of message.content) if (block.type === "tool_use") index.set(block.id, block);
  }
  return index;
}
