import { estimateTokens, sendableMessages, type Message } from "@hatloop/context";
import { AgentState } from "./agent-state.js";
import { referenceHandoff, referenceSummary } from "./reference-summary.js";
import type { StrategyContext, StrategyRun, SummaryCall } from "./types.js";

// The reference Go loop (docs/design/reference-loop.md) as written: before each call, at >= 90% of the window, either
// plain compaction (keep the last 10 messages, append a mechanical summary of the rest to the
// scratchpad) or first the progressive removal levels, which drop whole tool-result messages from the
// middle outward — orphaning their tool_use blocks — falling back to the plain compaction (its LLM
// summary replaced by its own mechanical fallback). We give it the benefit of the doubt on one point
// the reference leaves open: after a compaction its scratchpad is sent, as the first user message.

const MAX_RECENT_MESSAGES = 10;
const REMOVAL_LEVELS = [0, 10, 20, 50, 100];

export function referenceLoop(ctx: StrategyContext, options: { progressive: boolean }): StrategyRun {
  const agent = new AgentState();
  let messages: Message[] = [];
  let task = "";
  let compacted = false;
  const counts = { compactions: 0, removals: 0 };
  const summaries: SummaryCall[] = [];
  const compactAt = Math.floor((ctx.window * 90) / 100);
  const estimate = (m: readonly Message[]): number => estimateTokens(m, { system: [ctx.system] });

  const request = (): Message[] => {
    if (!compacted) return messages;
    // Joined with a leading user message (results first), as an API client must; nothing else is merged.
    const pad: Message = { role: "user", content: [{ type: "text", text: `## Scratchpad\n${agent.scratchpad || "(empty)"}` }] };
    const [first, ...rest] = messages;
    return first?.role === "user" ? [...sendableMessages([pad, first]), ...rest] : [pad, ...messages];
  };

  const plainCompaction = (): void => {
    if (messages.length <= MAX_RECENT_MESSAGES) return;
    const old = messages.slice(0, -MAX_RECENT_MESSAGES);
    messages = messages.slice(-MAX_RECENT_MESSAGES);
    const summary = referenceSummary(old);
    // The reference loop summarises with the cheaper model (its mechanical text stands in for the answer).
    summaries.push({
      model: "summary",
      inputTokens: estimateTokens(old),
      cachedTokens: 0,
      outputTokens: estimateTokens([{ role: "assistant", content: summary }]),
    });
    agent.scratchpad = `${agent.scratchpad}\n\n## Compacted History\n${summary}`;
    compacted = true;
    counts.compactions++;
  };

  const progressive = (): void => {
    const target = Math.floor((compactAt * 80) / 100);
    for (const pct of REMOVAL_LEVELS) {
      const filtered = filterToolResponses(messages, pct);
      if (estimate(filtered) < target) {
        messages = filtered;
        counts.removals++;
        return;
      }
    }
    plainCompaction();
  };

  const take = (appended: readonly Message[]): void => {
    for (const m of appended) {
      if (!task && m.role === "user")
        task = typeof m.content === "string" ? m.content : m.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
      agent.observe(m);
      messages.push(m);
    }
  };

  return {
    async next(appended) {
      take(appended);
      if (estimate(request()) >= compactAt) {
        if (options.progressive) progressive();
        else plainCompaction();
      }
      return request();
    },
    async handoff(appended) {
      take(appended);
      return referenceHandoff(task, agent);
    },
    stats: () => ({ ...counts }),
    summaryCalls: () => summaries,
  };
}

/** The reference loop's filterToolResponses: removes whole user messages that carry tool results, middle outward. */
export function filterToolResponses(messages: readonly Message[], removePercent: number): Message[] {
  if (removePercent === 0) return [...messages];
  const toolIndices = messages.flatMap((m, i) =>
    m.role === "user" && typeof m.content !== "string" && m.content.some((b) => b.type === "tool_result") ? [i] : [],
  );
  if (toolIndices.length === 0) return [...messages];
  let numToRemove = Math.floor((toolIndices.length * removePercent) / 100);
  if (numToRemove === 0 && removePercent > 0) numToRemove = 1;
  const middle = Math.floor(toolIndices.length / 2);
  const toRemove = new Set<number>();
  for (let i = 0; i < numToRemove; i++) {
    const offset = Math.floor(i / 2);
    if (i % 2 === 0) {
      if (middle - offset - 1 >= 0) toRemove.add(toolIndices[middle - offset - 1]!);
    } else if (middle + offset < toolIndices.length) toRemove.add(toolIndices[middle + offset]!);
  }
  return messages.filter((_, i) => !toRemove.has(i));
}
