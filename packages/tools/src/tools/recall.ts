import { z } from "zod";
import { defineTool, success } from "../define-tool.js";

// Recall brings back pieces of this session's earlier messages that were pruned from the live
// context. Excerpts are centred on the query's words so a long message still shows what matched.

const DEFAULT_LIMIT = 5;
const EXCERPT_CHARS = 800;
const TOTAL_CAP = 8_000;

export function recallTool(options: { maxOutputChars: number }) {
  const cap = Math.min(TOTAL_CAP, options.maxOutputChars);
  return defineTool({
    name: "recall",
    description:
      "Search this session's earlier messages that are no longer in your context (full-text search). " +
      "Use it to recover a detail you know was seen before: an error message, a decision, a file's old content.",
    input: z.object({
      query: z.string().trim().min(1).describe("Words to search for, e.g. `migration timeout error`"),
      limit: z.number().int().min(1).max(20).optional().describe(`Maximum hits (default ${DEFAULT_LIMIT})`),
    }),
    async run(input, context) {
      const hits = await context.services.recall(input.query, input.limit ?? DEFAULT_LIMIT);
      if (hits.length === 0) return success(`Nothing found for "${input.query}" in this session's earlier messages.`);
      const parts: string[] = [];
      let size = 0;
      for (const hit of hits) {
        const part = `[#${hit.seq} · iteration ${hit.iteration} · ${hit.role}]\n${excerpt(hit.text, input.query)}`;
        if (size + part.length > cap && parts.length > 0) break;
        parts.push(part);
        size += part.length + 2;
      }
      const omitted = hits.length - parts.length;
      const footer = omitted > 0 ? `\n\n[${omitted} more hits omitted to stay under the size cap]` : "";
      return success(`Found ${hits.length} earlier messages for "${input.query}":\n\n${parts.join("\n\n")}${footer}`);
    },
  });
}

function excerpt(text: string, query: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= EXCERPT_CHARS) return flat;
  const lower = flat.toLowerCase();
  const words = query
    .toLowerCase()
    .split(/\W+/)
    .filter((w) => w.length > 1);
  const at =
    words
      .map((w) => lower.indexOf(w))
      .filter((i) => i >= 0)
      .sort((a, b) => a - b)[0] ?? 0;
  const start = Math.max(0, Math.min(at - Math.floor(EXCERPT_CHARS / 3), flat.length - EXCERPT_CHARS));
  const end = start + EXCERPT_CHARS;
  return `${start > 0 ? "…" : ""}${flat.slice(start, end)}${end < flat.length ? "…" : ""}`;
}
