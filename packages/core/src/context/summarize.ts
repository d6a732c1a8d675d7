import {
  artifactTrail,
  buildSummaryPrompt,
  errorMessage,
  extractDecisionFromResponse,
  parseStructuredSummary,
  summarizeMechanically,
  type Message,
} from "@hatloop/context";
import type { ModelPort } from "../ports/model.js";
import { askText } from "./ask-text.js";
import type { Usage } from "../store/port.js";

// The summary of what a compaction drops: the structured LLM summary (seven sections, docs/design/summaries.md) on
// the cheaper model when enabled, else — or on any error, or when the answer lacks its sections —
// the mechanical one, which is deterministic and keeps the whole artifact trail.

export interface DroppedSummary {
  text: string;
  source: "llm" | "mechanical";
  usage: Usage | null;
  costUsd: number;
  /** Why the LLM summary was not used, when it was attempted (shown on the context.compacted event). */
  fallbackReason: string | null;
}

export async function summarizeDropped(
  messages: Message[],
  options: { model: ModelPort | null; summaryModel: string; signal: AbortSignal },
): Promise<DroppedSummary> {
  const mechanical = summarizeMechanically(messages, { extractDecision: extractDecisionFromResponse }).text;
  if (!options.model) return { text: mechanical, source: "mechanical", usage: null, costUsd: 0, fallbackReason: null };
  try {
    const { text, usage, costUsd } = await askText(
      { model: options.model, summaryModel: options.summaryModel, signal: options.signal },
      buildSummaryPrompt(messages),
      4_096,
    );
    const parsed = parseStructuredSummary(text);
    if (!parsed) return { text: mechanical, source: "mechanical", usage, costUsd, fallbackReason: "the summary lacked its sections" };
    // The artifact trail is every method's weak spot: keep the deterministic one beside the prose.
    const files = artifactTrail(messages);
    const trail = files.length ? `\n\nFiles changed (from the tool calls): ${files.join(", ")}` : "";
    return { text: `${parsed}${trail}`, source: "llm", usage, costUsd, fallbackReason: null };
  } catch (error) {
    return {
      text: mechanical,
      source: "mechanical",
      usage: null,
      costUsd: 0,
      fallbackReason: errorMessage(error).split("\n")[0]!.slice(0, 200),
    };
  }
}
