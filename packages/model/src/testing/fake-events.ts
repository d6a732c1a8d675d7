import { estimateTokens, type FakeContent, type FakeMessageReply, type FakeUsage, type RecordedRequest } from "./fake-replies.js";

// The SSE events (and the non-streaming body) for one message reply, shaped like the real API's:
// message_start, ping, per block content_block_start / *_delta (split in chunks) / content_block_stop,
// message_delta with stop_reason and usage, message_stop.

export interface SseEvent {
  event: string;
  data: unknown;
}

interface Resolved {
  id: string;
  model: string;
  blocks: Array<
    | { type: "text"; text: string }
    | { type: "thinking"; thinking: string; signature: string }
    | { type: "redacted_thinking"; data: string }
    | { type: "tool_use"; id: string; name: string; input: unknown; json: string }
  >;
  stopReason: string;
  stopDetails: FakeMessageReply["stopDetails"];
  usage: Required<FakeUsage>;
  /** The request's breakpoints asked for an hour: its cache writes are 1-hour entries. */
  hourTtl: boolean;
}

export function resolveReply(reply: FakeMessageReply, request: RecordedRequest, index: number): Resolved {
  const content: FakeContent[] = typeof reply.content === "string" ? [{ type: "text", text: reply.content }] : reply.content;
  let tool = 0;
  const blocks = content.map((c) =>
    c.type !== "tool_use"
      ? c
      : {
          type: "tool_use" as const,
          id: c.id ?? `toolu_fake_${index}_${++tool}`,
          name: c.name,
          input: c.input ?? {},
          json: c.rawJson ?? (c.input === undefined ? "" : JSON.stringify(c.input)),
        },
  );
  const hasTool = blocks.some((b) => b.type === "tool_use");
  const { system, messages, tools } = request.body;
  return {
    id: `msg_fake_${index}`,
    model: reply.model ?? request.body.model,
    blocks,
    stopReason: reply.stopReason ?? (hasTool ? "tool_use" : "end_turn"),
    stopDetails: reply.stopDetails,
    usage: {
      input_tokens: reply.usage?.input_tokens ?? estimateTokens({ system, messages, tools }),
      output_tokens:
        reply.usage?.output_tokens ??
        estimateTokens(blocks.map((b) => (b.type === "text" ? b.text : b.type === "tool_use" ? b.input : ""))),
      cache_read_input_tokens: reply.usage?.cache_read_input_tokens ?? 0,
      cache_creation_input_tokens: reply.usage?.cache_creation_input_tokens ?? 0,
    },
    hourTtl: JSON.stringify(request.body).includes('"ttl":"1h"'),
  };
}

export function sseEvents(reply: FakeMessageReply, resolved: Resolved): SseEvent[] {
  const size = Math.max(1, reply.chunkSize ?? 8);
  const { usage } = resolved;
  const events: SseEvent[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          ...messageShell(resolved),
          content: [],
          stop_reason: null,
          // As recorded from the API: the cache write split by TTL, the service tier and (since 2026) the
          // inference geography.
          usage: {
            ...usage,
            cache_creation: resolved.hourTtl
              ? { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: usage.cache_creation_input_tokens }
              : { ephemeral_5m_input_tokens: usage.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 },
            output_tokens: 1,
            service_tier: "standard",
            inference_geo: "not_available",
          },
        },
      },
    },
    { event: "ping", data: { type: "ping" } },
  ];
  resolved.blocks.forEach((block, index) => {
    const delta = (d: unknown) => events.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: d } });
    events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: blockStart(block) } });
    if (block.type === "text") for (const piece of chunks(block.text, size)) delta({ type: "text_delta", text: piece });
    // The API opens every tool input with an empty fragment, also for a tool without arguments (recorded).
    if (block.type === "tool_use")
      for (const piece of ["", ...chunks(block.json, size)]) delta({ type: "input_json_delta", partial_json: piece });
    if (block.type === "thinking") {
      for (const piece of chunks(block.thinking, size)) delta({ type: "thinking_delta", thinking: piece });
      delta({ type: "signature_delta", signature: block.signature });
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  events.push({
    event: "message_delta",
    data: {
      type: "message_delta",
      delta: {
        stop_reason: resolved.stopReason,
        stop_sequence: null,
        ...(resolved.stopDetails ? { stop_details: { type: "refusal", ...resolved.stopDetails } } : {}),
      },
      // Cumulative, as recorded from the API (input tokens may be revised here).
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens: usage.output_tokens,
      },
    },
  });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  return events;
}

function blockStart(block: Resolved["blocks"][number]): unknown {
  switch (block.type) {
    case "text":
      return { type: "text", text: "" };
    case "thinking":
      return { type: "thinking", thinking: "", signature: "" };
    case "redacted_thinking":
      return block;
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: {} };
  }
}

export function messageBody(resolved: Resolved): unknown {
  const content = resolved.blocks.map((b) => (b.type === "tool_use" ? { type: b.type, id: b.id, name: b.name, input: b.input } : b));
  return { ...messageShell(resolved), content, stop_reason: resolved.stopReason, usage: resolved.usage };
}

function messageShell(resolved: Resolved): Record<string, unknown> {
  return { id: resolved.id, type: "message", role: "assistant", model: resolved.model, stop_sequence: null };
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export function formatSse(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
