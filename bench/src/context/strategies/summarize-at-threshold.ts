import { estimateTokens, isRealUserMessage, realUserText, type Message } from "@hatloop/context";
import { standInSummary } from "./stand-in-summary.js";
import { tailHandoff } from "./tail-handoff.js";
import type { Strategy, SummaryCall } from "./types.js";

// Goose / Claude Code style: when the next call would reach 80% of the window, the whole
// conversation is replaced by one structured summary (plus the last user request re-appended, as
// Goose does) and the session continues from there; the next crossing summarises again.

const SUMMARY_AT_PCT = 80;

export const summarizeAtThreshold: Strategy = {
  name: "summarize-at-threshold",
  summary: `at ${SUMMARY_AT_PCT}% of the window, replace the history by one structured summary (mechanical stand-in) and continue`,
  start(ctx) {
    const history: Message[] = [];
    let context: Message[] = [];
    let summary: string | undefined;
    let summaryMessage: Message | undefined;
    let summaries = 0;
    const calls: SummaryCall[] = [];
    const threshold = Math.floor((ctx.window * SUMMARY_AT_PCT) / 100);
    return {
      async next(appended) {
        history.push(...appended);
        context.push(...appended);
        const size = estimateTokens(context, { system: [ctx.system] });
        if (size >= threshold) {
          summary = standInSummary(history);
          // Claude Code and Goose ask the session's own model, with the conversation as it stands: its prefix is cached.
          calls.push({
            model: "main",
            inputTokens: size,
            cachedTokens: size,
            outputTokens: estimateTokens([{ role: "assistant", content: summary }]),
          });
          const lastRequest = [...history].reverse().find(isRealUserMessage);
          const texts = [summary, ...(lastRequest ? [`The last request from the user:\n${realUserText(lastRequest)}`] : [])];
          summaryMessage = { role: "user", content: texts.map((text) => ({ type: "text" as const, text })) };
          context = [summaryMessage];
          summaries++;
        }
        return [...context];
      },
      async handoff(appended) {
        history.push(...appended);
        context.push(...appended);
        return tailHandoff(
          history,
          context.filter((m) => m !== summaryMessage),
          summary,
        );
      },
      stats: () => ({ summaries }),
      summaryCalls: () => calls,
    };
  },
};
