// The thinking blocks a raw (recorded) SSE body streams, read the way the API documents them:
// a thinking block starts empty, thinking_delta events append its text, signature_delta its signature.
// The fake serves recordings as they are and still knows which thinking must come back byte for byte.

interface StreamLine {
  type?: string;
  index?: number;
  content_block?: { type?: string; thinking?: string; signature?: string };
  delta?: { type?: string; thinking?: string; signature?: string };
}

/** [signature, thinking] of every thinking block in an SSE body; nothing for a body that is not SSE. */
export function thinkingInSse(body: string): Array<[string, string]> {
  const open = new Map<number, { thinking: string; signature: string }>();
  for (const line of body.split("\n")) {
    if (!line.startsWith("data:")) continue;
    let event: StreamLine;
    try {
      event = JSON.parse(line.slice(5)) as StreamLine;
    } catch {
      continue;
    }
    const index = event.index ?? -1;
    if (event.type === "content_block_start" && event.content_block?.type === "thinking") {
      open.set(index, { thinking: event.content_block.thinking ?? "", signature: event.content_block.signature ?? "" });
    } else if (event.type === "content_block_delta") {
      const block = open.get(index);
      if (block && event.delta?.type === "thinking_delta") block.thinking += event.delta.thinking ?? "";
      if (block && event.delta?.type === "signature_delta") block.signature += event.delta.signature ?? "";
    }
  }
  return [...open.values()].map((b) => [b.signature, b.thinking]);
}
