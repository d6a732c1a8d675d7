import { jsonText, MAX_JSON_DEPTH, redactSecrets, type ContentBlock, type Message } from "@hatloop/context";

// Secrets never reach the database or the model's next request: every message is redacted when it
// enters the live context, before it is stored. Thinking blocks are the one exception: the API
// verifies them by signature, so they must go back byte for byte (they are model output, written
// from an already redacted context).

export function redactMessage(message: Message): Message {
  if (typeof message.content === "string") {
    const text = redactSecrets(message.content);
    return text === message.content ? message : { ...message, content: text };
  }
  let changed = false;
  const content = message.content.map((block) => {
    const next = redactBlock(block);
    changed ||= next !== block;
    return next;
  });
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by a callback or another task while this one awaited; TypeScript keeps the narrowing from before
  return changed ? { ...message, content } : message;
}

function redactBlock(block: ContentBlock): ContentBlock {
  switch (block.type) {
    case "text": {
      const text = redactSecrets(block.text);
      return text === block.text ? block : { ...block, text };
    }
    case "tool_use": {
      const input = redactValue(block.input);
      return input === block.input ? block : { ...block, input };
    }
    case "tool_result": {
      if (typeof block.content === "string") {
        const content = redactSecrets(block.content);
        return content === block.content ? block : { ...block, content };
      }
      const parts = block.content.map((part) => {
        if (part.type !== "text") return part;
        const text = redactSecrets(part.text);
        return text === part.text ? part : { ...part, text };
      });
      return parts.some((p, i) => p !== block.content[i]) ? { ...block, content: parts } : block;
    }
    default:
      return block;
  }
}

/**
 * Every string inside a JSON value, redacted; the same object back when nothing changed. Below
 * MAX_JSON_DEPTH levels the rest is redacted as JSON text (as the loop stores it): no deep recursion.
 */
export function redactValue(value: unknown): unknown {
  return redactAt(value, 0);
}

function redactAt(value: unknown, depth: number): unknown {
  if (typeof value === "string") return redactSecrets(value);
  if (typeof value === "object" && value !== null && depth >= MAX_JSON_DEPTH) return redactSecrets(jsonText(value));
  if (Array.isArray(value)) {
    const next = value.map((v) => redactAt(v, depth + 1));
    return next.some((v, i) => v !== value[i]) ? next : value;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).map(([k, v]) => [k, redactAt(v, depth + 1)] as const);
    return entries.some(([k, v]) => v !== (value as Record<string, unknown>)[k]) ? Object.fromEntries(entries) : value;
  }
  return value;
}
