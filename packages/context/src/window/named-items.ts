import { blocksOf, type Message } from "../messages.js";

// What the agent itself named in turns a compaction drops: the files, symbols, values and quoted
// strings of its own text and tool calls, newest first. A compaction keeps them as an index beside
// its summary, so what later work is likely to use again (a file still being edited, a function the
// agent keeps calling, an error string it searched for) stays visible by name, and one recall call
// brings back the turn that has the rest. Tool output is not read: what the agent never named it
// did not act on.

const PATH = /(?:[\w.@~+-]+\/)+[\w.@+-]+|\b[\w@+-]{2,}\.[a-z][a-z0-9]{0,5}\b/gi;
const SYMBOL = /\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\b/g;
const QUOTED = /"([^"\n]{8,60})"|`([^`\n]{6,60})`/g;
/** A word is a symbol when it is shaped like code: camelCase, snake_case, dotted, or letters with digits. */
const CODE_SHAPE = /[a-z][A-Z]|[A-Za-z]_|_[A-Za-z]|[A-Za-z]\.[A-Za-z]|[A-Za-z]\d|\d[A-Za-z]|^[A-Z][a-z]+[A-Z]/;
const EVERYWHERE = new Set(["dev/null", "e.g", "i.e", "etc", "usr/bin", "node_modules"]);

export interface NamedItemsOptions {
  /** At most this many (default 150). */
  max?: number;
  /** Text already shown elsewhere in the request: items it holds are not repeated. */
  shown?: string;
}

export function namedItems(messages: readonly Message[], options: NamedItemsOptions = {}): string[] {
  const max = options.max ?? 150;
  const shown = options.shown ?? "";
  const out = new Set<string>();
  for (let i = messages.length - 1; i >= 0 && out.size < max; i--) {
    const message = messages[i]!;
    if (message.role !== "assistant") continue;
    for (const text of ownText(message))
      for (const item of itemsIn(text)) {
        if (out.size >= max) break;
        if (!shown.includes(item)) out.add(item);
      }
  }
  return [...out];
}

/** The agent's own words in a message: its text and the string values of its tool inputs. */
function ownText(message: Message): string[] {
  return blocksOf(message).flatMap((b) => (b.type === "text" ? [b.text] : b.type === "tool_use" ? stringsIn(b.input) : []));
}

function itemsIn(text: string): string[] {
  const found: string[] = [];
  const add = (raw: string | undefined) => {
    const item = raw?.replace(/^[./]+|[.,:;)\]]+$/g, "");
    if (item && item.length >= 4 && item.length <= 80 && !EVERYWHERE.has(item)) found.push(item);
  };
  for (const m of text.matchAll(PATH)) add(m[0]);
  for (const m of text.matchAll(SYMBOL)) if (m[0].length >= 4 && CODE_SHAPE.test(m[0])) add(m[0]);
  for (const m of text.matchAll(QUOTED)) add(m[1] ?? m[2]);
  return found;
}

function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  return value !== null && typeof value === "object" ? Object.values(value).flatMap(stringsIn) : [];
}
