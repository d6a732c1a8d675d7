import { readFileSync } from "node:fs";
import type { ContentBlock, ImageBlock, Message, TextBlock } from "@hatloop/context";
import { errorMessage } from "@hatloop/context";

// Transcript files: one JSON object per line, {"role": "user" | "assistant", "content": [Anthropic
// content blocks]} (a string content is accepted too), with an optional "at": the ISO-8601 time the
// message was recorded (the real gaps between model calls decide prompt-cache expiry). Blank lines
// are skipped. Anything else is a one-line error naming the file and the line.

export class TranscriptError extends Error {}

/** A transcript's messages and, per message, its time in epoch ms (null where the file has none). */
export interface Transcript {
  messages: Message[];
  times: (number | null)[];
}

const IMAGE: ImageBlock = { type: "image", source: { type: "url", url: "transcript-image" } };

export function readTranscript(file: string): Transcript {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new TranscriptError(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)})`);
  }
  return parseTranscript(text, file);
}

export function parseTranscript(text: string, file: string): Transcript {
  const messages: Message[] = [];
  const times: (number | null)[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    const fail = (reason: string): never => {
      throw new TranscriptError(`${file}:${i + 1}: ${reason}`);
    };
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      fail(`invalid JSON (${errorMessage(error).split("\n")[0]})`);
    }
    messages.push(toMessage(value, fail));
    times.push(toTime(value, fail));
  });
  if (messages.length === 0) throw new TranscriptError(`${file}: no messages`);
  return { messages, times };
}

type Fail = (reason: string) => never;

function toMessage(value: unknown, fail: Fail): Message {
  if (!isObject(value)) return fail("expected a JSON object with role and content");
  const { role, content } = value;
  if (role !== "user" && role !== "assistant") return fail(`role must be "user" or "assistant", got ${JSON.stringify(role)}`);
  if (typeof content === "string") return { role, content };
  if (!Array.isArray(content)) return fail("content must be a string or an array of content blocks");
  return { role, content: content.map((block, k) => toBlock(block, (reason) => fail(`content[${k}]: ${reason}`))) };
}

function toTime(value: unknown, fail: Fail): number | null {
  const at = isObject(value) ? value["at"] : undefined;
  if (at === undefined) return null;
  const ms = typeof at === "string" ? Date.parse(at) : NaN;
  return Number.isNaN(ms) ? fail(`"at" must be an ISO-8601 date string, got ${JSON.stringify(at)}`) : ms;
}

function toBlock(block: unknown, fail: Fail): ContentBlock {
  if (!isObject(block)) return fail("expected a content block object");
  const str = (key: string, optional = false): string => {
    const v = block[key];
    if (typeof v === "string") return v;
    if (optional && v === undefined) return "";
    return fail(`${String(block["type"])} block needs a string "${key}"`);
  };
  switch (block["type"]) {
    case "text":
      return { type: "text", text: str("text") };
    case "thinking":
      return { type: "thinking", thinking: str("thinking"), signature: str("signature", true) };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: str("data") };
    case "tool_use":
      return { type: "tool_use", id: str("id"), name: str("name"), input: block["input"] ?? {} };
    case "tool_result": {
      const content = block["content"] ?? "";
      if (typeof content !== "string" && !Array.isArray(content)) return fail('tool_result "content" must be a string or an array');
      // Images keep their place (they are priced as images); their bytes do not matter here.
      const parts =
        typeof content === "string"
          ? content
          : content.map((c, k): TextBlock | ImageBlock => {
              if (isObject(c) && c["type"] === "text" && typeof c["text"] === "string") return { type: "text", text: c["text"] };
              if (isObject(c) && c["type"] === "image") return IMAGE;
              return fail(`tool_result content[${k}] must be a text or image block`);
            });
      return {
        type: "tool_result",
        tool_use_id: str("tool_use_id"),
        content: parts,
        ...(block["is_error"] === true ? { is_error: true } : {}),
      };
    }
    case "image":
      return IMAGE;
    default:
      return fail(`unknown content block type ${JSON.stringify(block["type"])}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
