import { changedPaths, type Message, type ToolResultBlock, type ToolUseBlock } from "@hatloop/context";
import type { Tool, ToolResult } from "@hatloop/core";

// The agent's tools in the bench: every tool the transcript's agent used, each answering with the
// result the transcript recorded for that call. The loop runs a tool by name and input (it does not
// pass the call id), so recorded results queue up under name + input and are taken in order.
// A result the loop would show differently is shown as hatloop shows it: images are named, not
// inlined, as hatloop's MCP tools do. Paths written or edited are reported as changed files.

export class ReplayTools {
  readonly tools: Tool[];
  readonly changed = new Set<string>();
  private readonly results = new Map<string, ToolResult[]>();

  constructor(names: readonly string[]) {
    this.tools = [...new Set(names)].map((name) => this.tool(name));
  }

  /** The results that answer `assistant`'s calls, recorded in the messages that follow it. */
  record(assistant: Message, following: readonly Message[]): void {
    this.results.clear();
    const calls = new Map(blocks(assistant).flatMap((b) => (b.type === "tool_use" ? [[b.id, b] as const] : [])));
    for (const message of following)
      for (const block of blocks(message)) {
        if (block.type !== "tool_result") continue;
        const call = calls.get(block.tool_use_id);
        if (!call) continue;
        const key = keyOf(call.name, call.input);
        this.results.set(key, [...(this.results.get(key) ?? []), resultOf(block, call)]);
      }
  }

  private tool(name: string): Tool {
    return {
      spec: { name, description: `${name} (replayed from the transcript)`, inputSchema: { type: "object" } },
      run: async (input) => {
        const queue = this.results.get(keyOf(name, input));
        const result = queue?.shift() ?? { isError: true, content: "No result was recorded for this call." };
        for (const path of result.meta?.changedFiles ?? []) this.changed.add(path);
        return result;
      },
    };
  }
}

function resultOf(block: ToolResultBlock, call: ToolUseBlock): ToolResult {
  const content =
    typeof block.content === "string"
      ? block.content
      : block.content
          .map((part) =>
            part.type === "text"
              ? part.text
              : part.source.type === "base64"
                ? `[image ${part.source.media_type}, ${Math.floor((part.source.data.length * 3) / 4)} bytes, not shown]`
                : `[image ${part.source.url}, not shown]`,
          )
          .join("\n\n");
  const changedFiles = changedPaths({ use: call, result: block });
  return { content, isError: block.is_error === true, ...(changedFiles.length ? { meta: { changedFiles } } : {}) };
}

function keyOf(name: string, input: unknown): string {
  return `${name}\u0000${JSON.stringify(input)}`;
}

function blocks(message: Message) {
  return typeof message.content === "string" ? [] : message.content;
}
