import { errorMessage, jsonDepthExceeds, MAX_JSON_DEPTH } from "@hatloop/context";
import { malformed } from "./line.js";
import type { Signal } from "./types.js";

// EVENT:<topic>[:<json>] or EVENT:<topic> <free text>. The topic ends at whitespace, or at a ":"
// followed by "{" (a JSON payload, read by balanced braces and aware of strings, so it may span
// lines). Trailing punctuation makes a topic invalid rather than silently different.

const TOPIC = /^[a-z][a-z0-9_.-]*[a-z0-9]$/;

/** Parses the EVENT signal starting at `text` (which begins with "EVENT:"). */
export function parseEvent(text: string, knownTopics: ReadonlySet<string>): Signal {
  const rest = text.slice("EVENT:".length);
  const end = rest.search(/\s|:\s*\{/);
  const topic = end === -1 ? rest.trim() : rest.slice(0, end);
  const firstLine = text.split("\n")[0]!;
  if (!TOPIC.test(topic)) return malformed("EVENT", firstLine, `invalid topic "${topic}"`);
  if (!knownTopics.has(topic)) return malformed("EVENT", firstLine, `unknown topic ${topic}`);
  const after = end === -1 ? "" : rest.slice(end);
  const json = /^:\s*\{/.test(after) ? after.slice(after.indexOf("{")) : null;
  if (json !== null) {
    const body = balancedJson(json);
    if (body === null) return malformed("EVENT", firstLine, "unterminated JSON payload");
    let payload: unknown;
    try {
      payload = JSON.parse(body);
    } catch (error) {
      return malformed("EVENT", firstLine, `invalid JSON payload: ${errorMessage(error)}`);
    }
    // Events are stored and shown: a payload too deep to write back as JSON is refused here.
    if (jsonDepthExceeds(payload, MAX_JSON_DEPTH - 1))
      return malformed("EVENT", firstLine, `payload nested ${MAX_JSON_DEPTH} levels deep or more`);
    return { kind: "event", topic, payload };
  }
  const message = after.split("\n")[0]!.trim();
  return { kind: "event", topic, payload: message ? { message } : undefined };
}

/** The shortest prefix of `text` that is a balanced {...} object, or null. */
function balancedJson(text: string): string | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return text.slice(0, i + 1);
  }
  return null;
}
