import type { CacheControl, ContentBlock, Message } from "@hatloop/context";
import type { ModelRequest, ToolSpec } from "@hatloop/core";
import type {
  Base64ImageSource,
  ContentBlockParam,
  MessageCountTokensParams,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages";
import { cacheControl, MAX_CACHE_BREAKPOINTS, withConversationBreakpoint } from "./cache-breakpoints.js";

// ModelRequest → Messages API parameters, with the prompt-cache breakpoints placed (see
// cache-breakpoints.ts for the conversation one).

export function toCreateParams(request: ModelRequest): MessageCreateParamsStreaming {
  return {
    ...toCountParams(request),
    max_tokens: request.maxTokens,
    stream: true,
    ...(request.toolChoice ? { tool_choice: { type: "tool", name: request.toolChoice } } : {}),
  };
}

export function toCountParams(request: Omit<ModelRequest, "maxTokens">): MessageCountTokensParams {
  // Every breakpoint asks for the same TTL: a later one may not outlive an earlier one.
  const control = cacheControl(request.cacheTtl);
  const system = systemBlocks(request.system, control);
  const tools = toolParams(request.tools, control);
  const budget = MAX_CACHE_BREAKPOINTS - (system.length > 0 ? 1 : 0) - (tools.length > 0 ? 1 : 0);
  const messages = withConversationBreakpoint(request.messages, budget, control).map(toMessageParam);
  return {
    model: request.model,
    messages,
    ...(system.length > 0 ? { system } : {}),
    ...(tools.length > 0 ? { tools } : {}),
  };
}

function systemBlocks(parts: string[], control: CacheControl): TextBlockParam[] {
  const blocks: TextBlockParam[] = parts.filter((p) => p.trim() !== "").map((text) => ({ type: "text", text }));
  const last = blocks.at(-1);
  if (last) last.cache_control = control;
  return blocks;
}

function toolParams(specs: ToolSpec[], control: CacheControl): Tool[] {
  const tools: Tool[] = specs.map((s) => ({ name: s.name, description: s.description, input_schema: s.inputSchema }));
  const last = tools.at(-1);
  if (last) last.cache_control = control;
  return tools;
}

function toMessageParam(message: Message): MessageParam {
  const content = typeof message.content === "string" ? message.content : message.content.map(toBlockParam);
  return message.role === "user" ? { role: "user", content } : { role: "assistant", content };
}

function toBlockParam(block: ContentBlock): ContentBlockParam {
  switch (block.type) {
    case "image":
      return { ...block, source: imageSource(block.source) };
    case "tool_result": {
      const { content } = block;
      if (typeof content === "string") return { ...block, content };
      return { ...block, content: content.map((c) => (c.type === "image" ? { ...c, source: imageSource(c.source) } : c)) };
    }
    default:
      return block;
  }
}

type ImageSource = Extract<ContentBlock, { type: "image" }>["source"];

function imageSource(source: ImageSource): Base64ImageSource | { type: "url"; url: string } {
  // Our message type keeps media_type an open string; the API validates it, so narrowing here
  // only satisfies the SDK's literal union.
  return source.type === "base64" ? { ...source, media_type: source.media_type as Base64ImageSource["media_type"] } : source;
}
