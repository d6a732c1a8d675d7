import type { ContentBlock, Message } from "@hatloop/context";
import { STOP_REASONS, type ModelStreamEvent, type RefusalDetails, type StopReason, type Usage } from "@hatloop/core";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { ApiFailure } from "../retry/api-failure.js";

// Builds one assistant message from the raw stream events of one attempt, forwarding text deltas
// and tool starts as they arrive. Tool input JSON is only parsed at content_block_stop, because
// the partial JSON of input_json_delta is not valid until then.

type Building =
  | { kind: "text"; text: string }
  | { kind: "thinking"; thinking: string; signature: string }
  | { kind: "redacted"; data: string }
  | { kind: "tool"; id: string; name: string; json: string; input: unknown; complete: boolean };

export interface AccumulatedResponse {
  message: Message & { role: "assistant" };
  stopReason: StopReason;
  usage: Usage;
  model: string;
  refusal?: RefusalDetails;
  truncatedTools?: string[];
  /** Server-side web searches the API ran and bills per request (usage.server_tool_use). */
  webSearchRequests: number;
  /** Of the cache writes, those for 1-hour entries (usage.cache_creation), billed at 2x instead of 1.25x. */
  cacheWrite1hTokens: number;
}

const KNOWN_STOP_REASONS: ReadonlySet<string> = new Set(STOP_REASONS);

export class ResponseAccumulator {
  private readonly blocks = new Map<number, Building>();
  private readonly usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  private webSearchRequests = 0;
  private cacheWrite1hTokens = 0;
  private stopReason: string | null = null;
  private refusal: RefusalDetails | undefined;
  private model = "";
  private stopped = false;

  constructor(private readonly onEvent?: (event: ModelStreamEvent) => void) {}

  apply(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case "message_start": {
        const u = event.message.usage;
        this.model = event.message.model;
        this.usage.inputTokens = u.input_tokens;
        this.usage.outputTokens = u.output_tokens;
        this.usage.cacheReadTokens = u.cache_read_input_tokens ?? 0;
        this.usage.cacheWriteTokens = u.cache_creation_input_tokens ?? 0;
        this.webSearchRequests = u.server_tool_use?.web_search_requests ?? 0;
        this.cacheWrite1hTokens = u.cache_creation?.ephemeral_1h_input_tokens ?? 0;
        return;
      }
      case "content_block_start": {
        const block = event.content_block;
        if (block.type === "text") {
          this.blocks.set(event.index, { kind: "text", text: block.text });
          if (block.text) this.onEvent?.({ type: "text_delta", text: block.text });
        } else if (block.type === "thinking") {
          this.blocks.set(event.index, { kind: "thinking", thinking: block.thinking, signature: block.signature });
        } else if (block.type === "redacted_thinking") {
          this.blocks.set(event.index, { kind: "redacted", data: block.data });
        } else if (block.type === "tool_use") {
          this.blocks.set(event.index, { kind: "tool", id: block.id, name: block.name, json: "", input: undefined, complete: false });
          this.onEvent?.({ type: "tool_use_start", id: block.id, name: block.name });
        }
        return;
      }
      case "content_block_delta": {
        const building = this.blocks.get(event.index);
        if (building?.kind === "text" && event.delta.type === "text_delta") {
          building.text += event.delta.text;
          this.onEvent?.({ type: "text_delta", text: event.delta.text });
        } else if (building?.kind === "thinking" && event.delta.type === "thinking_delta") {
          building.thinking += event.delta.thinking;
        } else if (building?.kind === "thinking" && event.delta.type === "signature_delta") {
          building.signature += event.delta.signature;
        } else if (building?.kind === "tool" && event.delta.type === "input_json_delta") {
          building.json += event.delta.partial_json;
        }
        return;
      }
      case "content_block_stop": {
        const building = this.blocks.get(event.index);
        if (building?.kind === "tool") finishTool(building);
        return;
      }
      case "message_delta": {
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        const details = event.delta.stop_details;
        if (details) this.refusal = { category: details.category ?? null, explanation: details.explanation ?? null };
        const u = event.usage;
        // message_delta usage is cumulative; null means "unchanged since message_start".
        this.usage.outputTokens = u.output_tokens;
        if (u.input_tokens != null) this.usage.inputTokens = u.input_tokens;
        if (u.cache_read_input_tokens != null) this.usage.cacheReadTokens = u.cache_read_input_tokens;
        if (u.cache_creation_input_tokens != null) this.usage.cacheWriteTokens = u.cache_creation_input_tokens;
        if (u.server_tool_use) this.webSearchRequests = u.server_tool_use.web_search_requests;
        return;
      }
      case "message_stop":
        this.stopped = true;
        return;
    }
  }

  /** The finished response; a stream that ended before message_stop is a retriable failure. */
  finish(): AccumulatedResponse {
    if (!this.stopped) throw new ApiFailure("stream ended before message_stop", null, true);
    const truncated = this.stopReason === "max_tokens";
    const content: ContentBlock[] = [];
    const cut: string[] = [];
    const ordered = [...this.blocks].sort(([a], [c]) => a - c).map(([, b]) => b);
    for (const b of ordered) {
      if (b.kind === "text") {
        // Kept as sent, blank ones too: the request rule (sendable) never sends a blank one back.
        content.push({ type: "text", text: b.text });
      } else if (b.kind === "thinking") {
        // Kept verbatim (the signature verifies it): tool-use turns must send it back unchanged.
        content.push({ type: "thinking", thinking: b.thinking, signature: b.signature });
      } else if (b.kind === "redacted") {
        content.push({ type: "redacted_thinking", data: b.data });
      } else if (truncated && (b === ordered.at(-1) || !b.complete)) {
        // The output limit stopped the model inside this call: even JSON that parses may lack keys.
        cut.push(b.name);
      } else if (b.complete) {
        content.push({ type: "tool_use", id: b.id, name: b.name, input: b.input });
      } else {
        // Only max_tokens explains an unfinished tool input; anything else is a garbled stream.
        throw new ApiFailure(`tool_use ${b.name} ended with invalid input JSON`, null, true);
      }
    }
    const stopReason = this.mapStopReason(content);
    return {
      message: { role: "assistant", content },
      stopReason,
      usage: { ...this.usage },
      model: this.model,
      webSearchRequests: this.webSearchRequests,
      cacheWrite1hTokens: this.cacheWrite1hTokens,
      ...(stopReason === "refusal" ? { refusal: this.refusal ?? { category: null, explanation: null } } : {}),
      ...(cut.length ? { truncatedTools: cut } : {}),
    };
  }

  private mapStopReason(content: ContentBlock[]): StopReason {
    if (this.stopReason !== null && KNOWN_STOP_REASONS.has(this.stopReason)) return this.stopReason as StopReason;
    return content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  }
}

function finishTool(tool: Extract<Building, { kind: "tool" }>): void {
  if (tool.json.trim() === "") {
    tool.input = {};
    tool.complete = true;
    return;
  }
  try {
    tool.input = JSON.parse(tool.json);
    tool.complete = true;
  } catch {
    tool.complete = false;
  }
}
