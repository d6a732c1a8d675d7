import type { ToolResult } from "@hatloop/core";

// An MCP tool's answer as a hatloop tool result: text the model reads, in a normal tool_result, so
// it is capped, redacted, archived and removed middle-out like any other. Binary content (images,
// audio, blobs) is named, not inlined: base64 would only fill the context.

interface McpContent {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri: string; text?: string; blob?: string; mimeType?: string };
}

export interface McpCallResult {
  content?: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** Servers of protocol versions before 2024-11-05 answer with `toolResult` instead. */
  toolResult?: unknown;
}

export function toToolResult(result: McpCallResult): ToolResult {
  const parts = (result.content ?? []).map(contentText);
  if (!parts.length && result.structuredContent) parts.push(JSON.stringify(result.structuredContent, null, 2));
  if (!parts.length && result.toolResult !== undefined) parts.push(JSON.stringify(result.toolResult, null, 2));
  const text = parts.join("\n\n");
  return { isError: Boolean(result.isError), content: text || "(the tool returned nothing)" };
}

function contentText(item: McpContent): string {
  switch (item.type) {
    case "text":
      return item.text ?? "";
    case "image":
    case "audio":
      return `[${item.type} ${item.mimeType ?? ""}, ${Math.floor(((item.data ?? "").length * 3) / 4)} bytes, not shown]`;
    case "resource": {
      const resource = item.resource;
      if (!resource) return "[resource]";
      return resource.text !== undefined
        ? `[resource ${resource.uri}]\n${resource.text}`
        : `[resource ${resource.uri}, ${resource.mimeType ?? "binary"}, not shown]`;
    }
    case "resource_link":
      return `[resource link ${item.uri ?? ""}${item.name ? ` (${item.name})` : ""}]`;
    default:
      return `[${item.type} content, not shown]`;
  }
}
