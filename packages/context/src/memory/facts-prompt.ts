import { textOf, toolResults, toolResultText, type Message } from "../messages.js";
import { factKey, slug } from "./fact-statement.js";
import { MAX_FACT_LENGTH } from "./facts-extract.js";
import { FACT_TYPES, isFactType, type ExistingFact, type FactCandidate } from "./facts-types.js";
import { isInjectedText } from "./real-user.js";
import { redactSecrets } from "./redact.js";
import { collapseWhitespace } from "./text.js";

// Model-based fact extraction (the coding-agent prompt of docs/design/memory-and-recall.md): a prompt builder and a strict parser.
// The parser reports any problem as an error so that the caller falls back to extractFactCandidates.

const MESSAGE_CHARS = 2000;
const DEFAULT_MAX_PROMPT_CHARS = 24_000;
const MAX_KNOWN_FACTS = 40;

const INSTRUCTIONS = `Extract durable facts from this coding-agent conversation so they survive context compaction.

Fact types: ${FACT_TYPES.join(", ")}.
Examples: {"type":"decision","key":"database","content":"Use PostgreSQL instead of MySQL"}
{"type":"config","key":"api-port","content":"The API port is 3000"}
{"type":"issue","key":"staging-ssl","content":"SSL certificate error in staging"}

Rules:
- Only facts that stay true and matter later: decisions, configuration, architecture, conventions, pitfalls, failing tests, task state.
- Exclude greetings, small talk, temporary debugging steps, speculation and raw file content.
- Never include secrets, tokens, passwords or API keys.
- "key" names the subject in a few lowercase words joined by "-"; a newer fact about the same subject must reuse its key.
- "content" is one sentence of at most ${MAX_FACT_LENGTH} characters.
- Do not repeat known facts unless they changed.

Answer with a JSON array only, e.g. [{"type":"...","key":"...","content":"..."}]; [] when there is nothing.`;

function renderMessage(message: Message): string | null {
  const text = textOf(message).trim();
  if (message.role === "assistant") return text ? `[assistant]: ${text}` : null;
  if (text && !isInjectedText(text)) return `[user]: ${text}`;
  const results = toolResults(message).map(toolResultText).join("\n").trim();
  return results ? `[tool result]: ${results}` : null;
}

function clip(text: string): string {
  return text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS)}... [truncated]` : text;
}

/**
 * The extraction prompt: instructions, known facts and the conversation (each message clipped to
 * 2000 characters, secrets redacted, oldest messages dropped first when over `maxChars`).
 */
export function buildFactExtractionPrompt(
  messages: readonly Message[],
  options: { known?: readonly ExistingFact[]; maxChars?: number } = {},
): string {
  const known = (options.known ?? []).slice(0, MAX_KNOWN_FACTS).map((f) => `- [${f.type}] ${collapseWhitespace(f.content)}`);
  const head = [INSTRUCTIONS, "", "Known facts:", ...(known.length ? known : ["(none)"]), "", "Conversation:"].join("\n");
  const rendered = messages
    .map(renderMessage)
    .filter((m): m is string => m !== null)
    .map((m) => redactSecrets(clip(m)));
  const budget = (options.maxChars ?? DEFAULT_MAX_PROMPT_CHARS) - head.length;
  const kept: string[] = [];
  let used = 0;
  for (const message of [...rendered].reverse()) {
    if (used + message.length + 2 > budget && kept.length > 0) break;
    kept.unshift(message);
    used += message.length + 2;
  }
  return `${head}\n${kept.join("\n\n")}`;
}

export type FactParseResult = { ok: true; facts: FactCandidate[] } | { ok: false; error: string };

function jsonArrayText(reply: string): string | null {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(reply)?.[1] ?? reply;
  const start = fenced.indexOf("[");
  const end = fenced.lastIndexOf("]");
  return start === -1 || end < start ? null : fenced.slice(start, end + 1);
}

function parseItem(item: unknown, index: number): FactCandidate | string | null {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return `item ${index} is not an object`;
  const { type, key, content } = item as Record<string, unknown>;
  if (typeof type !== "string" || !isFactType(type.trim().toLowerCase())) return `item ${index} has an unknown type`;
  if (typeof content !== "string" || content.trim() === "") return `item ${index} has no content`;
  const text = collapseWhitespace(content);
  if (text.length > MAX_FACT_LENGTH * 2) return `item ${index} is too long`;
  if (redactSecrets(text) !== text) return null; // a secret: never stored, not an error either
  const given = typeof key === "string" ? slug(key, 80) : "";
  return { key: given || factKey(text), type: type.trim().toLowerCase() as FactCandidate["type"], content: text, seq: index };
}

/** Parses the model's reply; any structural problem is an error (the caller then uses the rules). */
export function parseFactExtractionResponse(reply: string): FactParseResult {
  const json = jsonArrayText(reply);
  if (json === null) return { ok: false, error: "no JSON array in the reply" };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { ok: false, error: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!Array.isArray(value)) return { ok: false, error: "the reply is not a JSON array" };
  const facts: FactCandidate[] = [];
  for (const [index, item] of value.entries()) {
    const parsed = parseItem(item, index);
    if (typeof parsed === "string") return { ok: false, error: parsed };
    if (parsed !== null) facts.push(parsed);
  }
  return { ok: true, facts };
}
